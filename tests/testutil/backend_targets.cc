// SPDX-License-Identifier: MIT
#include "testutil/backend_targets.h"

#include "testutil/sshd_server.h"
#include "testutil/temp_dir.h"

#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <sstream>

namespace hermes::testing {
namespace {

// Whether bubblewrap can make a sandbox here (user namespaces may be off).
const std::string& bwrap_problem() {
  static const std::string problem = [] {
    int rc =
        std::system("bwrap --die-with-parent --unshare-all --ro-bind / / true >/dev/null 2>&1");
    return rc == 0 ? std::string() : std::string("bubblewrap cannot create a sandbox here");
  }();
  return problem;
}

std::string indented(const std::string& extra) {
  std::istringstream in(extra);
  std::string out;
  for (std::string line; std::getline(in, line);) out += "  " + line + "\n";
  return out;
}

}  // namespace

std::vector<BackendKind> all_backend_kinds() {
  return {BackendKind::kLocal, BackendKind::kPortable, BackendKind::kSsh, BackendKind::kSandbox,
          BackendKind::kDocker};
}

std::string kind_name(BackendKind kind) {
  switch (kind) {
    case BackendKind::kLocal:
      return "local";
    case BackendKind::kPortable:
      return "portable";
    case BackendKind::kSsh:
      return "ssh";
    case BackendKind::kSandbox:
      return "sandbox";
    case BackendKind::kDocker:
      return "docker_shim";
  }
  return "?";
}

std::string backend_yaml(BackendKind kind, const std::string& work, const std::string& extra) {
  switch (kind) {
    case BackendKind::kLocal:
      return "terminal:\n  backend: local\n" + indented(extra);
    case BackendKind::kPortable:
      return "terminal:\n  backend: local\n  portable_files: true\n" + indented(extra);
    case BackendKind::kSsh:
      return shared_sshd().terminal_yaml() + "  cwd: " + work + "\n" + indented(extra);
    case BackendKind::kSandbox:
      return "terminal:\n  backend: sandbox\n  sandbox_workspace: " + work + "\n" + indented(extra);
    case BackendKind::kDocker:
      use_docker_shim();
      return "terminal:\n  backend: docker\n  cwd: " + work + "\n  docker_volumes:\n    - " + work +
             ":" + work + "\n" + indented(extra);
  }
  return "";
}

std::string unavailable_reason(BackendKind kind) {
  switch (kind) {
    case BackendKind::kSsh:
      return shared_sshd().running() ? "" : "sshd fixture: " + shared_sshd().skip_reason();
    case BackendKind::kSandbox:
    case BackendKind::kDocker:
      return bwrap_problem();
    default:
      return "";
  }
}

const std::string& use_docker_shim() {
  // Removed at exit, after the sessions have removed their containers.
  static const TempDir state;
  static const bool once = [] {
    std::string path =
        std::string(HERMES_DOCKER_SHIM_DIR) + ":" + (getenv("PATH") ? getenv("PATH") : "");
    ::setenv("PATH", path.c_str(), 1);
    ::setenv("HERMES_DOCKER_SHIM_STATE", state.path().c_str(), 1);
    return true;
  }();
  (void)once;
  return state.path();
}

std::string real_docker() {
  std::istringstream path(getenv("PATH") ? getenv("PATH") : "");
  for (std::string dir; std::getline(path, dir, ':');) {
    if (dir.empty() || dir == HERMES_DOCKER_SHIM_DIR) continue;
    std::string candidate = dir + "/docker";
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

}  // namespace hermes::testing
