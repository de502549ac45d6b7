// SPDX-License-Identifier: MIT
// A command's whole process tree, held by a small supervisor process: the
// command's parent and a child subreaper (PR_SET_CHILD_SUBREAPER). Every
// descendant — double-forked, setsid'd, in a process group of its own — is
// reparented to the supervisor when its parent dies, so it stays findable
// (the supervisor's descendants in /proc) and ending the tree ends all of it.
// A command that SIGKILLs the supervisor hands the tree back to the process
// that launched it, which launch() makes a child subreaper too
// (proc/child_ledger.h).
// execute_code and the terminal's local commands run this way
// (docs/terminal.md, Processes).
#pragma once

#include "core/result.h"
#include "proc/unique_fd.h"
#include "proc/write_capture.h"

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace hermes::proc {

struct TreeSpec {
  std::string program;            // the executable's path (no PATH lookup)
  std::vector<std::string> argv;  // argv[0] included
  std::vector<std::string> env;   // `NAME=value`, the command's whole environment
  std::string cwd;                // empty: the server's
  // The command's stdin, stdout and stderr: the caller's descriptors, which
  // the caller closes after launch. -1 is /dev/null.
  int stdin_fd = -1;
  int stdout_fd = -1;
  int stderr_fd = -1;
  // stdin_fd is a pty slave: the command takes it as its controlling terminal.
  bool controlling_terminal = false;
  // A Landlock ruleset (proc/write_fence.h) the command enters before exec,
  // so the whole tree but its supervisor runs under it; -1: none. When the
  // kernel refuses it the command does not run: exit 126, a line on stderr.
  int write_fence_fd = -1;
  // Set: the command runs under the write capture's filter and the
  // supervisor keeps what it is about to change (write_capture.h).
  const WriteCapture* capture = nullptr;
};

// Owns the supervisor. The command leads a new session (pgid == sid == pid).
// An exec failure shows up as exit code 127 with a line on the command's
// stderr. Reading the status and reaping are for one thread; `signal`,
// `terminate`, `kill`, `wait_gone`, `members` and `escaped` may be called
// from any thread while the tree is owned. The destructor kills what is left
// and reaps the supervisor.
class ProcessTree {
 public:
  // Forks the supervisor, which forks and execs the command; returns once the
  // command's pid is known. kIo on failure.
  static Result<ProcessTree> launch(const TreeSpec& spec);
  ProcessTree(ProcessTree&& other) noexcept;
  ProcessTree& operator=(ProcessTree&&) = delete;
  ~ProcessTree();

  // The command (the supervisor's first child).
  pid_t pid() const { return command_; }

  // Readable when the command's exit code is ready (see read_status) and at
  // EOF once the supervisor is done: the whole tree is gone.
  int status_fd() const { return status_.get(); }
  // Consumes what status_fd holds. Sets `exit_code` when the command's exit
  // code arrives (minus the signal number when a signal killed it). Returns
  // false once the supervisor has finished (EOF).
  bool read_status(std::optional<int>& exit_code);

  // Sends `sig` once to every process of the tree; SIGKILL is kill().
  void signal(int sig) const;
  // SIGTERM to every process, SIGKILL to what is left after `grace`
  // (idempotent; an earlier deadline or kill() wins).
  void terminate(std::chrono::milliseconds grace) const;
  // SIGKILL to every process until none is left; the supervisor then exits.
  void kill() const;
  // Waits up to `limit` for the supervisor to finish (nothing of the tree is
  // left, or its supervisor was killed: see escaped). True once it has.
  bool wait_gone(std::chrono::milliseconds limit) const;
  // The processes of the tree still alive (zombies excluded), command
  // included; empty once it is gone.
  std::vector<pid_t> members() const;
  // True when the supervisor died from a signal (someone SIGKILLed it):
  // what it held came back to this process, a child subreaper, and
  // proc::end_adopted (child_ledger.h) ends it.
  bool escaped() const;

  // Waits for the supervisor to finish and reaps it; when it was killed,
  // ends what came back (end_adopted).
  void reap();

 private:
  ProcessTree(pid_t supervisor, pid_t command, UniqueFd control, UniqueFd status,
              UniqueFd supervisor_fd);
  void send(char op, int value) const;

  pid_t supervisor_ = -1;  // -1 once reaped
  pid_t command_ = -1;
  UniqueFd control_;  // seqpacket socket to the supervisor; EOF means kill
  UniqueFd status_;
  UniqueFd supervisor_fd_;  // pidfd of the supervisor: readable once it exits
  bool escaped_ = false;    // set by reap()
  // EOF seen on the status pipe (read by one thread, checked by any).
  std::atomic<bool> status_closed_{false};
};

}  // namespace hermes::proc
