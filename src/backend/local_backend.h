// SPDX-License-Identifier: MIT
// The local backend: `bash [-l] -c` on this host, in the environment the
// contract gives local commands (the provider-secret blocklist dropped,
// `terminal.env_passthrough` honoured). Under a workspace root its commands
// are fenced (backend/command_fence.h). With `portable_files` the file tools
// still go through shell commands, as on a remote target (the parity suite's
// "portable-shell local").
#pragma once

#include "backend/backend.h"
#include "backend/capture_slot.h"
#include "backend/command_fence.h"

#include <memory>
#include <mutex>

namespace hermes::backend {

struct LocalOptions {
  bool portable_files = false;
  // Names let through the environment filter.
  std::vector<std::string> env_passthrough;
  // Set (a real path) to fence commands; empty: no fence.
  std::string root;
  std::vector<std::string> extra_write_paths;
  std::string host_temp_dir = "/tmp";
};

class LocalBackend final : public Backend {
 public:
  LocalBackend() = default;
  explicit LocalBackend(bool portable_files) : options_{.portable_files = portable_files} {}
  explicit LocalBackend(LocalOptions options) : options_(std::move(options)) {}

  std::string name() const override { return "local"; }
  bool native_files() const override { return !options_.portable_files; }
  Status start(std::stop_token) override;
  bool runs_on_this_host() const override { return true; }
  std::vector<std::string> bash_argv(const std::string& script, bool login) const override;
  std::optional<std::vector<std::string>> launch_env() const override;
  const CommandFence* command_fence() const override;
  bool capture_writes(std::shared_ptr<const proc::WriteCapture> capture) override;
  std::shared_ptr<const proc::WriteCapture> write_capture() const override;
  std::string home() const override;
  std::string default_cwd() const override;
  std::string temp_dir() const override;

 private:
  const LocalOptions options_{};
  mutable std::mutex mu_;
  std::unique_ptr<CommandFence> fence_;  // mu_; set once by start()
  CaptureSlot capture_;
};

}  // namespace hermes::backend
