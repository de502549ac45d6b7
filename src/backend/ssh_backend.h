// SPDX-License-Identifier: MIT
// The ssh backend: the OpenSSH client with a per-target ControlMaster socket,
// BatchMode (never a password prompt) and a connection check on first use.
// `~` and the default cwd are the remote user's home. The master connection
// outlives the session by ControlPersist (300 s), as upstream: the next
// session (or the startup check's) reuses it.
#pragma once

#include "backend/backend.h"

#include <mutex>

namespace hermes::backend {

struct SshTarget {
  std::string host;
  std::string user;  // empty: ssh's default
  int port = 22;
  std::string key;  // identity file; empty: ssh's default
  // The remote starting directory; empty or `~` means the remote home.
  std::string cwd;
  // Extra `-o` options (e.g. `UserKnownHostsFile=…`); they win over ours.
  std::vector<std::string> options;
  // Local directory for the control socket.
  std::string control_dir;
};

class SshBackend final : public Backend {
 public:
  explicit SshBackend(SshTarget target);

  std::string name() const override { return "ssh"; }
  bool native_files() const override { return false; }
  // Connects (opening the control master) and learns the remote $HOME.
  // Failures are retried on the next call.
  Status start(std::stop_token stop) override;
  std::vector<std::string> bash_argv(const std::string& script, bool login) const override;
  std::optional<std::string> transport_error(const BashOutcome& outcome) const override;
  bool has_transport() const override { return true; }
  bool outlives_its_launcher() const override { return true; }
  std::string home() const override;
  std::string default_cwd() const override;

  // `user@host:port`, as errors show it.
  std::string display() const;
  const std::string& control_path() const { return control_path_; }

 private:
  std::vector<std::string> base_argv() const;
  void keep_control_master() const;

  SshTarget target_;
  std::string control_path_;
  mutable std::mutex mu_;
  bool started_ = false;  // mu_
  std::string home_;      // mu_
};

}  // namespace hermes::backend
