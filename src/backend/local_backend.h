// SPDX-License-Identifier: MIT
// The local backend: `bash [-l] -c` on this host. With `portable_files` the
// file tools still go through shell commands, as on a remote target (the
// parity suite's "portable-shell local").
#pragma once

#include "backend/backend.h"

namespace hermes {

class LocalBackend final : public Backend {
 public:
  explicit LocalBackend(bool portable_files = false) : portable_files_(portable_files) {}

  std::string name() const override { return "local"; }
  bool native_files() const override { return !portable_files_; }
  Status start(std::stop_token) override { return {}; }
  bool runs_on_this_host() const override { return true; }
  std::vector<std::string> bash_argv(const std::string& script, bool login) const override;
  std::string home() const override;
  std::string default_cwd() const override;
  std::string temp_dir() const override;

 private:
  bool portable_files_;
};

}  // namespace hermes
