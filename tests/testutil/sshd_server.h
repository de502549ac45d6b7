// SPDX-License-Identifier: MIT
// A real OpenSSH server for tests: throwaway host and client keys, a config
// in a temporary directory, `sshd -D` on a free loopback port, stopped on
// destruction. Only root can run it (sshd's privilege separation).
#pragma once

#include "testutil/temp_dir.h"

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

namespace hermes::testing {

class SshdServer {
 public:
  // Starts the server; on failure skip_reason() says why (not root, no
  // sshd, the port never opened) and nothing is left running. The server
  // is sent SIGTERM when the constructing thread ends (construct it on the
  // test's main thread).
  SshdServer();
  ~SshdServer();
  SshdServer(const SshdServer&) = delete;
  SshdServer& operator=(const SshdServer&) = delete;

  bool running() const { return pid_ > 0; }
  const std::string& skip_reason() const { return skip_reason_; }

  int port() const { return port_; }
  // The authorized client key, and one the server refuses.
  std::string client_key() const { return dir_.file("client_key"); }
  std::string refused_key() const { return dir_.file("refused_key"); }
  std::string known_hosts() const { return dir_.file("known_hosts"); }
  // The remote user's $HOME (sshd sets it; it differs from the tests' HOME).
  std::string remote_home() const { return dir_.file("home"); }
  // The directory holding the fixture's files; nothing else writes there.
  const TempDir& dir() const { return dir_; }
  // sshd's log (`-e` output), for failure messages.
  std::string log() const { return dir_.read("sshd.log"); }

  // `terminal:` YAML keys that point the ssh backend at this server as root
  // with `key` (the client key when empty). `control_dir` is not a config key:
  // the backend puts its socket under $TMPDIR/hermes-ssh.
  std::string terminal_yaml(const std::string& key = "") const;
  // The `-o` options the backend needs for this server (known_hosts file).
  std::vector<std::string> ssh_options() const;

  // SIGKILLs every per-connection sshd process (and what they started),
  // leaving the listener up: a connection dropped mid-command. Returns how
  // many processes were killed.
  int kill_connections();

 private:
  bool prepare();
  bool launch();
  bool wait_until_listening();
  std::vector<pid_t> descendants() const;

  TempDir dir_;
  std::string skip_reason_;
  int port_ = 0;
  pid_t pid_ = -1;
};

// The one server a test binary shares (started on first use).
SshdServer& shared_sshd();

}  // namespace hermes::testing

// Skips the current test when the shared sshd cannot run here.
#define HERMES_REQUIRE_SSHD()                                                             \
  do {                                                                                    \
    if (!::hermes::testing::shared_sshd().running())                                      \
      GTEST_SKIP() << "sshd fixture: " << ::hermes::testing::shared_sshd().skip_reason(); \
  } while (0)
