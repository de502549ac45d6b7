// SPDX-License-Identifier: MIT
// The seam between the task tools and the agent CLI process: one run with a
// deadline, separate bounded stdout/stderr, and the whole process group
// killed at the deadline. Tests substitute a fake runner.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace hermes::task {

struct AgentRun {
  std::vector<std::string> argv;       // argv[0] looked up in PATH
  std::vector<std::string> extra_env;  // `NAME=value`, added to the server's env
  std::string cwd;                     // empty: the server's cwd
  std::chrono::milliseconds timeout{300000};
  // Between SIGTERM and SIGKILL to the group once the deadline passed.
  std::chrono::milliseconds kill_grace{5000};
  size_t max_stdout_bytes = 16 * 1024 * 1024;
};

struct AgentResult {
  bool spawn_failed = false;  // the program could not be started
  int spawn_errno = 0;        // why (ENOENT: no such program or cwd)
  bool timed_out = false;
  bool cancelled = false;
  std::optional<int> exit_code;    // nullopt when not started or killed by a signal
  std::optional<int> term_signal;  // the signal that ended it, if any
  std::string stdout_text;         // at most max_stdout_bytes
  bool stdout_truncated = false;
  std::string stderr_text;  // head and tail when long (64 KiB each)
  int64_t duration_ms = 0;
};

// Runs one agent process to completion. Implementations must be safe to call
// from several threads at once (one call per thread).
class AgentRunner {
 public:
  virtual ~AgentRunner() = default;
  // Never throws for process failures: they are reported in the result.
  virtual AgentResult run(const AgentRun& request, std::stop_token stop) = 0;
};

// The real runner: posix_spawn in a new session/process group, stdin
// /dev/null, stdout and stderr on separate pipes; SIGTERM then SIGKILL to the
// group at the deadline or on `stop`; leftovers of the group are killed when
// the agent exits.
std::unique_ptr<AgentRunner> make_process_runner();

}  // namespace hermes::task
