// SPDX-License-Identifier: MIT
// The raw system calls behind spawn.h: posix_spawn for pipes, forkpty for
// terminals, pidfds for exit notification, process-group signals.
#include "proc/child_ledger.h"
#include "proc/spawn.h"
#include "proc/write_fence.h"

#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <spawn.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <optional>
#include <string>
#include <thread>

extern char** environ;

namespace hermes::proc {
namespace {

// NUL-terminated pointer arrays built before the spawn, because nothing may
// allocate between fork and exec.
class CStringArray {
 public:
  explicit CStringArray(const std::vector<std::string>& items) {
    for (const std::string& s : items) ptrs_.push_back(const_cast<char*>(s.c_str()));
    ptrs_.push_back(nullptr);
  }
  char** get() { return ptrs_.data(); }

 private:
  std::vector<char*> ptrs_;
};

// Through syscall(): glibc 2.36's <sys/pidfd.h> lacks C++ linkage.
int open_pidfd(pid_t pid) { return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)); }

ExitStatus decode_status(int status) {
  if (WIFSIGNALED(status)) return ExitStatus{-WTERMSIG(status)};
  return ExitStatus{WEXITSTATUS(status)};
}

// Every signal back to its default action in the child: the server may
// ignore SIGPIPE, and ignored dispositions survive exec.
void default_signal_set(sigset_t* set) {
  sigfillset(set);
  sigdelset(set, SIGKILL);
  sigdelset(set, SIGSTOP);
}

void set_nonblocking(int fd) {
  int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

struct SpawnAttrs {
  posix_spawnattr_t attr;
  posix_spawn_file_actions_t actions;
  SpawnAttrs() {
    posix_spawnattr_init(&attr);
    posix_spawn_file_actions_init(&actions);
  }
  ~SpawnAttrs() {
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
  }
};

// The pipes of a kPipe child: merged output, and stdin when asked for.
struct StdioPipes {
  UniqueFd out_read, out_write, in_read, in_write;
};

Result<StdioPipes> make_stdio_pipes(StdinMode stdin_mode) {
  StdioPipes pipes;
  int out[2];
  if (::pipe2(out, O_CLOEXEC) != 0) return Error::FromErrno(errno, "pipe");
  pipes.out_read.reset(out[0]);
  pipes.out_write.reset(out[1]);
  if (stdin_mode == StdinMode::kPipe) {
    int in[2];
    if (::pipe2(in, O_CLOEXEC) != 0) return Error::FromErrno(errno, "pipe");
    pipes.in_read.reset(in[0]);
    pipes.in_write.reset(in[1]);
  }
  return pipes;
}

// The parent's side of the pipes, once the child has them.
void prepare_parent_ends(StdioPipes& pipes) {
  set_nonblocking(pipes.out_read.get());
  if (pipes.in_write.valid()) set_nonblocking(pipes.in_write.get());
  // A bigger pipe means fewer wake-ups for chatty commands; failure is fine.
  ::fcntl(pipes.out_read.get(), F_SETPIPE_SZ, 1 << 20);
}

std::vector<std::string> environ_copy() {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) env.emplace_back(*e);
  return env;
}

Result<ChildProcess> spawn_pipe(const SpawnOptions& options) {
  HERMES_ASSIGN_OR_RETURN(StdioPipes pipes, make_stdio_pipes(options.stdin_mode));
  UniqueFd& out_write = pipes.out_write;
  UniqueFd& in_read = pipes.in_read;
  SpawnAttrs sa;
  sigset_t defaults, empty;
  default_signal_set(&defaults);
  sigemptyset(&empty);
  posix_spawnattr_setsigdefault(&sa.attr, &defaults);
  posix_spawnattr_setsigmask(&sa.attr, &empty);
  posix_spawnattr_setpgroup(&sa.attr, 0);
  posix_spawnattr_setflags(&sa.attr,
                           (options.new_session ? POSIX_SPAWN_SETSID : POSIX_SPAWN_SETPGROUP) |
                               POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  if (in_read.valid()) {
    posix_spawn_file_actions_adddup2(&sa.actions, in_read.get(), 0);
  } else {
    posix_spawn_file_actions_addopen(&sa.actions, 0, "/dev/null", O_RDONLY, 0);
  }
  posix_spawn_file_actions_adddup2(&sa.actions, out_write.get(), 1);
  posix_spawn_file_actions_adddup2(&sa.actions,
                                   options.stderr_fd >= 0 ? options.stderr_fd : out_write.get(), 2);
  // Belt and braces: fds another thread opened without O_CLOEXEC never leak.
  posix_spawn_file_actions_addclosefrom_np(&sa.actions, 3);
  if (!options.cwd.empty()) {
    posix_spawn_file_actions_addchdir_np(&sa.actions, options.cwd.c_str());
  }
  CStringArray argv(options.argv);
  // Bound to a named object: CStringArray keeps pointers into the strings.
  const std::vector<std::string> no_env;
  CStringArray envp(options.env ? *options.env : no_env);
  pid_t pid = -1;
  const std::string& program = options.program.empty() ? options.argv[0] : options.program;
  SpawnRecord record;
  int rc = ::posix_spawnp(&pid, program.c_str(), &sa.actions, &sa.attr, argv.get(),
                          options.env ? envp.get() : environ);
  if (rc == 0) record.record(pid);
  if (rc != 0) return Error::FromErrno(rc, "spawn \"" + program + "\"");
  prepare_parent_ends(pipes);
  UniqueFd pid_fd(open_pidfd(pid));
  return ChildProcess(pid, std::move(pipes.out_read), std::move(pipes.in_write), std::move(pid_fd),
                      TerminalMode::kPipe);
}

// Runs in the forked child: async-signal-safe calls only.
[[noreturn]] void exec_in_pty_child(const char* program, char** argv, char** envp,
                                    const char* cwd) {
  sigset_t defaults, empty;
  default_signal_set(&defaults);
  sigemptyset(&empty);
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_handler = SIG_DFL;
  for (int sig = 1; sig < NSIG; ++sig) {
    if (sigismember(&defaults, sig) == 1) ::sigaction(sig, &sa, nullptr);
  }
  ::sigprocmask(SIG_SETMASK, &empty, nullptr);
  ::syscall(SYS_close_range, 3U, ~0U, 0U);
  if (cwd[0] != '\0' && ::chdir(cwd) != 0) ::_exit(126);
  ::execve(program, argv, envp);
  ::_exit(127);
}

Result<ChildProcess> spawn_pty(const SpawnOptions& options) {
  std::string program = find_program(options.program.empty() ? options.argv[0] : options.program);
  if (program.empty()) return Error::NotFound("spawn \"" + options.argv[0] + "\": not found");
  std::vector<std::string> env_copy;
  if (!options.env) env_copy = environ_copy();
  CStringArray argv(options.argv);
  CStringArray envp(options.env ? *options.env : env_copy);
  struct winsize ws {};
  ws.ws_row = options.pty_rows;
  ws.ws_col = options.pty_cols;
  int master = -1;
  SpawnRecord record;
  pid_t pid = ::forkpty(&master, nullptr, nullptr, &ws);
  if (pid < 0) return Error::FromErrno(errno, "forkpty");
  if (pid == 0) exec_in_pty_child(program.c_str(), argv.get(), envp.get(), options.cwd.c_str());
  record.record(pid);
  ::fcntl(master, F_SETFD, FD_CLOEXEC);
  set_nonblocking(master);
  UniqueFd output(master);
  // Input goes to the same master; a dup lets close_stdin drop it alone.
  UniqueFd input(::fcntl(master, F_DUPFD_CLOEXEC, 0));
  UniqueFd pid_fd(open_pidfd(pid));
  return ChildProcess(pid, std::move(output), std::move(input), std::move(pid_fd),
                      TerminalMode::kPty);
}

Result<UniqueFd> open_pty(const SpawnOptions& options, UniqueFd& slave) {
  struct winsize ws {};
  ws.ws_row = options.pty_rows;
  ws.ws_col = options.pty_cols;
  int master = -1, slave_fd = -1;
  if (::openpty(&master, &slave_fd, nullptr, nullptr, &ws) != 0) {
    return Error::FromErrno(errno, "openpty");
  }
  UniqueFd output(master);
  slave.reset(slave_fd);
  ::fcntl(master, F_SETFD, FD_CLOEXEC);
  ::fcntl(slave_fd, F_SETFD, FD_CLOEXEC);
  set_nonblocking(master);
  return output;
}

// A child under a ProcessTree supervisor, on pipes or a new pty.
Result<ChildProcess> spawn_tree(const SpawnOptions& options) {
  std::string program = find_program(options.program.empty() ? options.argv[0] : options.program);
  if (program.empty()) return Error::NotFound("spawn \"" + options.argv[0] + "\": not found");
  TreeSpec spec{.program = program,
                .argv = options.argv,
                .env = options.env ? *options.env : environ_copy(),
                .cwd = options.cwd,
                .write_fence_fd = options.write_fence_fd,
                .capture = options.write_capture};
  if (options.terminal == TerminalMode::kPty) {
    UniqueFd slave;
    HERMES_ASSIGN_OR_RETURN(UniqueFd output, open_pty(options, slave));
    spec.stdin_fd = spec.stdout_fd = spec.stderr_fd = slave.get();
    spec.controlling_terminal = true;
    HERMES_ASSIGN_OR_RETURN(ProcessTree tree, ProcessTree::launch(spec));
    // Input goes to the same master; a dup lets close_stdin drop it alone.
    UniqueFd input(::fcntl(output.get(), F_DUPFD_CLOEXEC, 0));
    return ChildProcess(std::move(tree), std::move(output), std::move(input), TerminalMode::kPty);
  }
  HERMES_ASSIGN_OR_RETURN(StdioPipes pipes, make_stdio_pipes(options.stdin_mode));
  spec.stdin_fd = pipes.in_read.get();
  spec.stdout_fd = pipes.out_write.get();
  spec.stderr_fd = options.stderr_fd >= 0 ? options.stderr_fd : pipes.out_write.get();
  HERMES_ASSIGN_OR_RETURN(ProcessTree tree, ProcessTree::launch(spec));
  prepare_parent_ends(pipes);
  return ChildProcess(std::move(tree), std::move(pipes.out_read), std::move(pipes.in_write),
                      TerminalMode::kPipe);
}

// posix_spawn runs no code of ours in the child, and the child inherits
// the Landlock domain of the thread that spawns it: so a thread of our own
// enters the fence, spawns, and ends.
Result<ChildProcess> spawn_fenced_pipe(const SpawnOptions& options) {
  std::optional<Result<ChildProcess>> spawned;
  std::thread([&] {
    if (!WriteFence::enter(options.engine_fence_fd)) {
      spawned.emplace(Error::FromErrno(errno, "landlock_restrict_self"));
      return;
    }
    // An exception must not end this thread: it would end the server.
    try {
      spawned.emplace(spawn_pipe(options));
    } catch (const std::exception& e) {
      spawned.emplace(Error::Io(std::string("could not start the search engine: ") + e.what()));
    }
  }).join();
  return std::move(*spawned);
}

}  // namespace

// The PATH lookup is done in the parent so the forkpty child only calls
// execve.
std::string find_program(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    std::string dir = dirs.substr(start, end - start);
    std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return {};
}

ChildProcess::ChildProcess(pid_t pid, UniqueFd output, UniqueFd stdin_fd, UniqueFd pid_fd,
                           TerminalMode mode)
    : pid_(pid),
      output_(std::move(output)),
      stdin_(std::move(stdin_fd)),
      pid_fd_(std::move(pid_fd)),
      mode_(mode) {}

ChildProcess::ChildProcess(ProcessTree tree, UniqueFd output, UniqueFd stdin_fd, TerminalMode mode)
    : pid_(tree.pid()),
      output_(std::move(output)),
      stdin_(std::move(stdin_fd)),
      mode_(mode),
      tree_(std::move(tree)) {}

ChildProcess::~ChildProcess() { destroy(); }

ChildProcess::ChildProcess(ChildProcess&& other) noexcept
    : pid_(std::exchange(other.pid_, -1)),
      output_(std::move(other.output_)),
      stdin_(std::move(other.stdin_)),
      pid_fd_(std::move(other.pid_fd_)),
      mode_(other.mode_),
      status_(std::exchange(other.status_, std::nullopt)),
      tree_(std::exchange(other.tree_, std::nullopt)) {}

ChildProcess& ChildProcess::operator=(ChildProcess&& other) noexcept {
  if (this == &other) return *this;
  destroy();
  pid_ = std::exchange(other.pid_, -1);
  output_ = std::move(other.output_);
  stdin_ = std::move(other.stdin_);
  pid_fd_ = std::move(other.pid_fd_);
  mode_ = other.mode_;
  status_ = std::exchange(other.status_, std::nullopt);
  if (other.tree_) tree_.emplace(std::move(*other.tree_));  // destroy() emptied ours
  other.tree_.reset();
  return *this;
}

void ChildProcess::destroy() {
  if (tree_) {
    tree_.reset();  // kills what is left of the tree and reaps its supervisor
    pid_ = -1;
  }
  if (pid_ <= 0) return;
  // Leftover grandchildren in the group die with their owner.
  signal_group(SIGKILL);
  if (!status_) wait();
  pid_ = -1;
}

Status ChildProcess::write_stdin(std::string_view data, std::chrono::milliseconds timeout) {
  if (!stdin_.valid()) return Error::Unavailable("stdin is closed");
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!data.empty()) {
    ssize_t n = ::write(stdin_.get(), data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) {
      // The stdin end is non-blocking so a child that never reads cannot
      // wedge the caller.
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return Error::Timeout("write stdin: the process is not reading");
      pollfd p{stdin_.get(), POLLOUT, 0};
      ::poll(&p, 1, static_cast<int>(left.count()));
      continue;
    }
    if (n < 0) return Error::FromErrno(errno, "write stdin");
    data.remove_prefix(static_cast<size_t>(n));
  }
  return {};
}

void ChildProcess::close_stdin() { stdin_.reset(); }

void ChildProcess::signal_group(int sig) const {
  if (tree_) {
    tree_->signal(sig);
  } else if (pid_ > 0) {
    ::kill(-pid_, sig);
  }
}

bool ChildProcess::wait_tree_gone(std::chrono::milliseconds limit) const {
  return !tree_ || tree_->wait_gone(limit);
}

std::vector<pid_t> ChildProcess::survivors() const {
  return tree_ ? tree_->members() : std::vector<pid_t>{};
}

std::optional<ExitStatus> ChildProcess::try_reap() {
  if (status_ || pid_ <= 0) return status_;
  if (tree_) {
    std::optional<int> code;
    bool open = tree_->read_status(code);
    // A supervisor gone without a word was killed, and its command with it.
    if (code || !open) status_ = ExitStatus{code.value_or(-SIGKILL)};
    return status_;
  }
  int status = 0;
  pid_t r = ::waitpid(pid_, &status, WNOHANG);
  if (r == pid_) {
    status_ = decode_status(status);
    forget_child(pid_);
  }
  return status_;
}

ExitStatus ChildProcess::wait() {
  if (status_) return *status_;
  while (tree_ && !try_reap()) {
    pollfd p{tree_->status_fd(), POLLIN, 0};
    ::poll(&p, 1, -1);
  }
  if (status_) return *status_;
  int status = 0;
  pid_t r;
  do {
    r = ::waitpid(pid_, &status, 0);
  } while (r < 0 && errno == EINTR);
  status_ = r == pid_ ? decode_status(status) : ExitStatus{-SIGKILL};
  forget_child(pid_);
  return *status_;
}

Result<ChildProcess> spawn(const SpawnOptions& options) {
  if (options.argv.empty() || options.argv[0].empty()) {
    return Error::InvalidArgument("spawn: empty argv");
  }
  // A fenced child enters its fence in the supervisor's fork, before exec.
  if (options.whole_tree || options.write_fence_fd >= 0 || options.write_capture != nullptr) {
    return spawn_tree(options);
  }
  if (options.engine_fence_fd >= 0) return spawn_fenced_pipe(options);
  if (options.terminal == TerminalMode::kPty) return spawn_pty(options);
  return spawn_pipe(options);
}

Status make_undumpable() {
  if (::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) {
    return Error::FromErrno(errno, "prctl(PR_SET_DUMPABLE)");
  }
  return {};
}

}  // namespace hermes::proc
