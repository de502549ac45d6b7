// SPDX-License-Identifier: MIT
// A script's whole process tree, held by a supervisor child that is a child
// subreaper: every descendant, double-forked daemons included, stays in its
// subtree, so ending the tree really ends everything the script started.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "proc/unique_fd.h"

namespace hermes::execute_code {

using proc::UniqueFd;

struct LaunchSpec {
  std::string program;            // absolute path of the interpreter
  std::vector<std::string> argv;  // argv[0] included
  std::vector<std::string> env;   // `NAME=value`, the child's whole environment
  std::string cwd;
};

enum class EndMode {
  kTerminate,  // SIGTERM to every descendant, 5 s grace, then SIGKILL
  kKill,       // SIGKILL to every descendant now
};

// Owns the supervisor. The script reads stdin from /dev/null, leads its own
// process group, and writes to two pipes. Not thread-safe; the destructor
// kills the tree and reaps the supervisor if that has not happened.
class SandboxProcess {
 public:
  // Forks the supervisor, which forks and execs the script. kIo on failure.
  // An exec failure shows up as exit code 127 with a line on stderr.
  static Result<SandboxProcess> launch(const LaunchSpec& spec);
  SandboxProcess(SandboxProcess&& other) noexcept;
  SandboxProcess& operator=(SandboxProcess&&) = delete;
  ~SandboxProcess();

  // Non-blocking read ends of the script's stdout and stderr.
  int stdout_fd() const { return stdout_.get(); }
  int stderr_fd() const { return stderr_.get(); }
  // Readable when the script's exit code is ready (see read_status) and at
  // EOF once the supervisor is done: the whole tree is gone.
  int status_fd() const { return status_.get(); }

  // Consumes what status_fd holds. Sets `exit_code` when the script's exit
  // code arrives (minus the signal number when a signal killed it). Returns
  // false once the supervisor has finished (EOF): the whole tree is gone.
  bool read_status(std::optional<int>& exit_code);
  // Asks the supervisor to end the tree (idempotent; kKill overrides).
  void end_tree(EndMode mode);
  // Waits for the supervisor to finish and reaps it.
  void reap();

 private:
  SandboxProcess(pid_t pid, UniqueFd out, UniqueFd err, UniqueFd control,
                 UniqueFd status);

  pid_t supervisor_ = -1;  // -1 once reaped
  UniqueFd stdout_;
  UniqueFd stderr_;
  UniqueFd control_;  // socket to the supervisor: 'T'; EOF means kill
  UniqueFd status_;
};

// The grace between SIGTERM and SIGKILL (docs/tools/execute_code.md).
inline constexpr int kTerminateGraceMs = 5000;

}  // namespace hermes::execute_code
