// SPDX-License-Identifier: MIT
// The sandbox backend (beyond the upstream): every command runs under
// bubblewrap with the whole root read-only, the workspace (and any configured
// extra directories) writable, a private /tmp that persists for the session
// (it holds the shell snapshot), no network unless configured, every
// namespace unshared and every capability dropped.
#pragma once

#include "backend/backend.h"
#include "backend/capture_slot.h"

#include <mutex>

namespace hermes::backend {

struct SandboxOptions {
  std::string workspace;              // writable, and the default cwd
  std::vector<std::string> writable;  // more writable directories
  bool network = false;
  std::string host_temp_dir = "/tmp";  // where the private /tmp lives on the host
};

class SandboxBackend final : public Backend {
 public:
  explicit SandboxBackend(SandboxOptions options) : options_(std::move(options)) {}
  ~SandboxBackend() override;

  std::string name() const override { return "sandbox"; }
  bool native_files() const override { return false; }
  // bubblewrap and the command are this host's processes: they run under
  // a whole-tree supervisor, and can run under the write capture.
  bool runs_on_this_host() const override { return true; }
  bool capture_writes(std::shared_ptr<const proc::WriteCapture> capture) override;
  std::shared_ptr<const proc::WriteCapture> write_capture() const override;
  // Creates the private /tmp and checks that bubblewrap works here.
  Status start(std::stop_token stop) override;
  std::vector<std::string> bash_argv(const std::string& script, bool login) const override;
  std::string home() const override;
  std::string default_cwd() const override { return options_.workspace; }
  void cleanup() override;

 private:
  SandboxOptions options_;
  mutable std::mutex mu_;
  std::string private_tmp_;  // mu_; empty until started
  CaptureSlot capture_;
};

}  // namespace hermes::backend
