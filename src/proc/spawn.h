// SPDX-License-Identifier: MIT
// Spawning child processes in their own session/process group, with merged
// stdout+stderr on a pipe or a pty, and the RAII owner that kills and reaps.
#pragma once

#include "core/result.h"
#include "proc/process_tree.h"
#include "proc/unique_fd.h"
#include "proc/write_capture.h"

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hermes::proc {

enum class StdinMode {
  kNull,  // /dev/null
  kPipe,  // a pipe whose write end the parent keeps (write/close)
};

enum class TerminalMode {
  kPipe,  // stdout and stderr merged into one pipe
  kPty,   // stdin, stdout and stderr on a new pseudo-terminal (forkpty)
};

struct SpawnOptions {
  // argv[0] is looked up in PATH when it has no slash.
  std::vector<std::string> argv;
  // The program to run when the child should see another argv[0] (an
  // absolute path run under its bare name, so diagnostics read `grep: …`);
  // empty runs argv[0].
  std::string program;
  // `NAME=value` entries; nullopt inherits the server's environment.
  std::optional<std::vector<std::string>> env;
  // Working directory of the child; empty inherits the server's.
  std::string cwd;
  StdinMode stdin_mode = StdinMode::kNull;
  TerminalMode terminal = TerminalMode::kPipe;
  // kPipe only: when set, the child's stderr goes to this fd (the write end
  // of the caller's own pipe, which the caller closes after spawn) instead of
  // being merged into the output pipe.
  int stderr_fd = -1;
  // kPipe only: false puts the child in a new process group (pgid == pid)
  // of the server's session instead of a new session. A new session is a
  // new scheduler autogroup, which halved a multi-threaded rg's CPU share on
  // a loaded machine (search_bench); short-lived engines need no session.
  bool new_session = true;
  // Runs the child under a ProcessTree supervisor (proc/process_tree.h), so
  // every descendant, even one that left the group or the session, is
  // signalled and killed with it; the child leads a new session.
  bool whole_tree = false;
  // A Landlock ruleset (WriteFence::fd) the child and all it starts run
  // under; -1 for none. Implies whole_tree: the child enters it before exec.
  int write_fence_fd = -1;
  // Keeps what the child's tree is about to change (write_capture.h);
  // implies whole_tree. Null: none.
  const WriteCapture* write_capture = nullptr;
  // kPipe, without whole_tree: a Landlock ruleset (WriteFence::read_only)
  // the child runs under with no supervisor, for short-lived engines that
  // start nothing. -1 for none.
  int engine_fence_fd = -1;
  unsigned short pty_rows = 30;
  unsigned short pty_cols = 120;
};

// A child's end: `code` is the exit status, or minus the signal number when
// a signal killed it (so SIGKILL is -9).
struct ExitStatus {
  int code = 0;
  bool signaled() const { return code < 0; }
};

// Owns one spawned child. The child leads its own process group (and, unless
// asked otherwise, session; pgid == pid), so signalling the group reaches
// grandchildren too; with `whole_tree` the "group" is the child's whole
// process tree. The destructor SIGKILLs the whole group (tree) and reaps the
// child if nobody did.
// Not thread-safe, except that `signal_group`, `wait_tree_gone`,
// `survivors`, `write_stdin` and `close_stdin` may be called from another
// thread while one thread reads output and reaps.
class ChildProcess {
 public:
  ChildProcess() = default;
  ChildProcess(pid_t pid, UniqueFd output, UniqueFd stdin_fd, UniqueFd pid_fd, TerminalMode mode);
  ChildProcess(ProcessTree tree, UniqueFd output, UniqueFd stdin_fd, TerminalMode mode);
  ~ChildProcess();
  ChildProcess(ChildProcess&& other) noexcept;
  ChildProcess& operator=(ChildProcess&& other) noexcept;
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return pid_; }
  bool is_pty() const { return mode_ == TerminalMode::kPty; }
  // Merged stdout+stderr (or the pty master), non-blocking, close-on-exec.
  int output_fd() const { return output_.get(); }
  // Readable (POLLIN) once the child has exited; -1 if pidfds are missing.
  int pid_fd() const { return tree_ ? tree_->status_fd() : pid_fd_.get(); }
  bool whole_tree() const { return tree_.has_value(); }
  bool has_stdin() const { return stdin_.valid(); }

  // Writes all of `data` to the child's stdin, waiting at most `timeout`
  // for a child that does not read. kUnavailable when there is no stdin
  // (closed or never opened), kTimeout when the pipe stayed full, kIo when
  // the child closed its end.
  Status write_stdin(std::string_view data,
                     std::chrono::milliseconds timeout = std::chrono::seconds(5));
  // Closes our end of the stdin pipe (EOF for the child).
  void close_stdin();
  // Sends `sig` to the child's process group (with whole_tree: to every
  // process of its tree; SIGKILL then repeats until none is left); harmless
  // once it is gone.
  void signal_group(int sig) const;
  // whole_tree: waits up to `limit` until nothing of the tree is left. Else
  // (the group cannot be watched) true at once.
  bool wait_tree_gone(std::chrono::milliseconds limit) const;
  // whole_tree: the pids of the tree still alive. Else empty.
  std::vector<pid_t> survivors() const;
  // whole_tree: its supervisor was SIGKILLed, so whatever the tree held went
  // out of reach and nobody can say it is gone.
  bool escaped() const { return tree_ && tree_->escaped(); }
  // Reaps the child if it has exited; nullopt while it runs.
  std::optional<ExitStatus> try_reap();
  // Blocks until the child exits and reaps it.
  ExitStatus wait();
  // The status once reaped.
  std::optional<ExitStatus> exit_status() const { return status_; }

 private:
  void destroy();

  pid_t pid_ = -1;
  UniqueFd output_;
  UniqueFd stdin_;
  UniqueFd pid_fd_;
  TerminalMode mode_ = TerminalMode::kPipe;
  std::optional<ExitStatus> status_;
  std::optional<ProcessTree> tree_;
};

// The path spawn would run for `name`: itself when it has a slash, else the
// first executable match on $PATH, else empty.
std::string find_program(const std::string& name);

// Starts a child as described. Errors: kInvalidArgument for an empty argv,
// kNotFound when the program or cwd does not exist, kIo otherwise.
Result<ChildProcess> spawn(const SpawnOptions& options);

// Makes the calling process undumpable (PR_SET_DUMPABLE 0): other processes
// of the same user, the commands it starts included, can no longer read its
// /proc/<pid>/environ, mem or fds, nor ptrace it. For the server, early;
// exec gives each child its own, dumpable, state back.
Status make_undumpable();

}  // namespace hermes::proc
