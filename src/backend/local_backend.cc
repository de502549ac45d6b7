// SPDX-License-Identifier: MIT
#include "backend/local_backend.h"

#include <cstdlib>

#include "core/paths.h"

namespace hermes {

std::vector<std::string> LocalBackend::bash_argv(const std::string& script, bool login) const {
  if (login) return {"bash", "-l", "-c", script};
  return {"bash", "-c", script};
}

std::string LocalBackend::home() const { return PathResolver::expand_user("~"); }

std::string LocalBackend::default_cwd() const { return PathResolver::workspace(""); }

std::string LocalBackend::temp_dir() const {
  const char* t = std::getenv("TMPDIR");
  return t && *t ? t : "/tmp";
}

}  // namespace hermes
