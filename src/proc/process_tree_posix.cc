// SPDX-License-Identifier: MIT
// The supervisor behind process_tree.h. Everything after fork() runs in a
// copy of a multithreaded server, so it only makes async-signal-safe system
// calls on stack memory: no allocation, no locks, no exceptions.
#include "proc/child_ledger.h"
#include "proc/fd_passing.h"
#include "proc/proc_scan.h"
#include "proc/process_tree.h"
#include "proc/write_capture.h"
#include "proc/write_fence.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <utility>
#include <vector>

extern char** environ;

namespace hermes::proc {
namespace {

// The supervisor's descriptors, moved to fixed numbers right after fork:
// the command's stdio, the control socket, the status pipe, the write
// capture's folder and look counter (write_capture.h), then the Landlock
// ruleset; /dev/null for what the tree goes without.
constexpr int kStdinFd = 0, kStdoutFd = 1, kStderrFd = 2, kControlFd = 3, kStatusFd = 4;
constexpr int kCaptureDirFd = 5, kLooksFd = 6, kFenceFd = 7;
constexpr int kFixedFds = 8;
// While killing, /proc is rescanned at most this often (not on every exit).
constexpr int64_t kKillRoundMs = 10;
// How long the destructor waits for a tree to die before leaving the reaping
// to a detached thread (a process stuck in uninterruptible sleep).
constexpr std::chrono::seconds kReapLimit{10};

// The exit of child `pid` if it has ended (si_pid 0 if not), leaving it
// to be reaped.
siginfo_t peek_exit(pid_t pid) {
  siginfo_t info{};
  ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT);
  return info;
}

// How long escaped() waits for a supervisor whose status pipe has closed to
// become waitable (it is already exiting).
constexpr std::chrono::seconds kExitLimit{2};

// One command to the supervisor: a signal to send once, a terminate with a
// grace in ms, or a kill.
enum : char { kSignalOp = 'S', kTerminateOp = 'T', kKillOp = 'K' };
struct Command {
  char op;
  int32_t value;
};

// What the command's child needs, prepared before fork (nothing may
// allocate afterwards).
struct ExecArgs {
  const char* program;
  char* const* argv;
  char* const* envp;
  const char* cwd;
  bool controlling_terminal;
  bool fenced = false;   // the command enters the ruleset at kFenceFd
  bool capture = false;  // run the command under the write capture's filter
  capture_internal::Plan plan;
  int listener_socket = -1;  // set in the supervisor: where the child sends the listener
};

class CStringArray {
 public:
  explicit CStringArray(const std::vector<std::string>& items) {
    for (const std::string& s : items) ptrs_.push_back(const_cast<char*>(s.c_str()));
    ptrs_.push_back(nullptr);
  }
  char* const* get() const { return ptrs_.data(); }

 private:
  std::vector<char*> ptrs_;
};

int64_t now_ms() {
  timespec ts{};
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t{ts.tv_sec} * 1000 + ts.tv_nsec / 1000000;
}

void write_text(int fd, const char* text) {
  size_t n = 0;
  while (text[n]) ++n;
  [[maybe_unused]] ssize_t w = ::write(fd, text, n);
}

// The processes a terminate has sent SIGTERM to.
struct Signalled {
  pid_t pids[kMaxScannedProcesses];
  int count = 0;
};

// Sends `sig` once to every descendant of the supervisor. The command's
// process group (`group`, -1 once the command is reaped and its number may be
// reused) gets it in one kill(): the kernel then also delivers it to a child
// being forked, which a scan of /proc would miss. The rest (other groups) are
// signalled one by one; one of them forking meanwhile is caught by the next
// kill round, its orphans being reparented to us (we are their subreaper).
// `noted`, when given, gets the processes found before the signal was sent:
// each of those has had it.
void signal_descendants(int sig, pid_t group, Signalled* noted = nullptr) {
  pid_t tree[kMaxScannedProcesses];
  int n = collect_descendants(::getpid(), tree, kMaxScannedProcesses, [](pid_t) {});
  bool group_signalled = group > 0 && ::kill(-group, sig) == 0;
  for (int i = 0; i < n; ++i) {
    if (!group_signalled || ::getpgid(tree[i]) != group) ::kill(tree[i], sig);
    if (noted != nullptr && noted->count < kMaxScannedProcesses) {
      noted->pids[noted->count++] = tree[i];
    }
  }
}

// Shells block SIGTERM around each fork (dash blocks every signal, bash
// SIGTERM among others), so the child starts with none pending: a SIGTERM
// that lands then kills the shell once the fork is done and never reaches
// the child. Such a child is an orphan of ours once the shell has exited:
// each orphan the terminate did not find gets SIGTERM now (one forked in
// the moment between that scan and the signal gets a second one). A child
// of a process still cleaning up after the SIGTERM is left alone.
void terminate_orphans(Signalled& signalled) {
  pid_t children[kMaxScannedProcesses];
  bool zombie[kMaxScannedProcesses];
  int n = scan_children(::getpid(), children, zombie, kMaxScannedProcesses);
  for (int i = 0; i < n; ++i) {
    if (zombie[i] || contains_pid(signalled.pids, signalled.count, children[i])) continue;
    ::kill(children[i], SIGTERM);
    if (signalled.count < kMaxScannedProcesses) signalled.pids[signalled.count++] = children[i];
  }
}

enum class Phase { kRunning, kTerminating, kKilling };

struct State {
  pid_t command;  // -1 once reaped
  Phase phase = Phase::kRunning;
  int64_t kill_at = 0;
  Signalled terminated;  // kTerminating: who has had SIGTERM
};

// Reaps every exited child, reporting the command's code on the status pipe
// (`reaped`: one was). True when no child is left at all.
bool reap_children(State& state, bool& reaped) {
  for (;;) {
    int status = 0;
    pid_t pid = ::waitpid(-1, &status, WNOHANG);
    if (pid <= 0) return pid < 0 && errno == ECHILD;
    reaped = true;
    if (pid != state.command) continue;
    state.command = -1;
    int32_t code = WIFSIGNALED(status) ? -WTERMSIG(status) : WEXITSTATUS(status);
    [[maybe_unused]] ssize_t w = ::write(kStatusFd, &code, sizeof code);
  }
}

// Hands the filter's listener to the supervisor (none: -1 sends nothing,
// and the command runs without the capture).
void send_listener(int socket, int listener) {
  if (listener >= 0) {
    if (!send_fd(socket, listener)) {
      // Nobody would answer the filter: every write would wait forever.
      write_text(kStderrFd, "cannot hand the write capture to the supervisor\n");
      ::_exit(126);
    }
    ::close(listener);
  }
  ::close(socket);
}

// The listener the command's child sent, or -1 (it ran without one).
int receive_listener(int socket) {
  int fd = receive_fd(socket);
  ::close(socket);
  return fd;
}

[[noreturn]] void exec_command(const ExecArgs& args) {
  // The command's group exists before launch can return: a signal to the
  // group reaches a child forked meanwhile too (the kernel makes that one
  // step), where a signal to each process found by a scan would miss it.
  ::setsid();
  // The command's pid goes on the status pipe before the command runs: a
  // command that kills the supervisor at once must not leave launch without
  // it (the tree has then escaped; it has not failed to start).
  int32_t me = ::getpid();
  [[maybe_unused]] ssize_t w = ::write(kStatusFd, &me, sizeof me);
  // Dispositions the server set (SIG_IGN survives exec) and our own go back
  // to the defaults; sigaction fails harmlessly on SIGKILL/SIGSTOP.
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  for (int sig = 1; sig < NSIG; ++sig) ::sigaction(sig, &dfl, nullptr);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  ::close(kControlFd);
  ::close(kStatusFd);
  ::close(kCaptureDirFd);
  ::close(kLooksFd);
  // The command alone is fenced: its supervisor keeps what the command is
  // about to change in the store, outside what the fence lets it write.
  bool fence_refused = args.fenced && !WriteFence::enter(kFenceFd);
  ::close(kFenceFd);
  if (args.capture && !fence_refused) {
    send_listener(args.listener_socket, capture_internal::install_filter());
  }
  if (fence_refused) {
    write_text(kStderrFd, "the kernel refused the Landlock write fence; the command did not run\n");
    ::_exit(126);
  }
  if (args.controlling_terminal) ::ioctl(kStdinFd, TIOCSCTTY, 0);
  if (args.cwd[0] != '\0' && ::chdir(args.cwd) != 0) {
    write_text(kStderrFd, "cannot enter the working directory\n");
    ::_exit(126);
  }
  ::execve(args.program, args.argv, args.envp);
  write_text(kStderrFd, "cannot start ");
  write_text(kStderrFd, args.program);
  write_text(kStderrFd, "\n");
  ::_exit(127);
}

void on_sigchld(int) {}

// Applies one command; EOF, an error or an unknown command means kill.
void read_command(State& state) {
  Command command{};
  ssize_t n = ::recv(kControlFd, &command, sizeof command, 0);
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
  if (n != static_cast<ssize_t>(sizeof command)) command.op = kKillOp;
  if (state.phase == Phase::kKilling) return;
  switch (command.op) {
    case kSignalOp:
      if (command.value > 0 && command.value < NSIG) {
        signal_descendants(command.value, state.command);
      }
      return;
    case kTerminateOp: {
      int64_t kill_at = now_ms() + (command.value > 0 ? command.value : 0);
      if (state.phase == Phase::kRunning) {
        signal_descendants(SIGTERM, state.command, &state.terminated);
        state.kill_at = kill_at;
      }
      state.kill_at = kill_at < state.kill_at ? kill_at : state.kill_at;
      state.phase = Phase::kTerminating;
      return;
    }
    default:
      state.phase = Phase::kKilling;
  }
}

// The command's stdio now belongs to it alone: holding the pipes would keep
// the reader from ever seeing EOF.
void release_stdio() {
  int null_fd = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  for (int fd : {kStdinFd, kStdoutFd, kStderrFd}) ::dup2(null_fd, fd);
  if (null_fd > kStderrFd) ::close(null_fd);
}

// The supervisor's record of what it copied: written only after the fork,
// so each supervisor starts with an empty one.
capture_internal::Copied g_copied;

[[noreturn]] void supervise(ExecArgs args) {
  args.plan.copied = &g_copied;
  struct sigaction sa {};
  sa.sa_handler = on_sigchld;
  ::sigaction(SIGCHLD, &sa, nullptr);
  // The supervisor is steered through its control socket only.
  sa.sa_handler = SIG_IGN;
  for (int sig : {SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM}) {
    ::sigaction(sig, &sa, nullptr);
  }
  sigset_t chld, waitmask, all;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  ::sigprocmask(SIG_BLOCK, &chld, nullptr);
  sigemptyset(&waitmask);
  // The command starts with the signals above ignored until exec_command
  // resets them, and an ignored signal is discarded: a SIGTERM sent right
  // after launch would be lost. A blocked one stays pending (even while
  // ignored) and lands once exec_command unblocks it.
  sigfillset(&all);
  ::sigprocmask(SIG_BLOCK, &all, nullptr);
  int pair[2] = {-1, -1};
  if (args.capture && ::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0) {
    args.capture = false;
  }
  args.listener_socket = pair[1];
  pid_t command = ::fork();
  if (command == 0) exec_command(args);
  ::sigprocmask(SIG_SETMASK, &chld, nullptr);
  if (command < 0) ::_exit(1);  // launch sees EOF before any pid
  int listener = -1;
  if (args.capture) {
    ::close(pair[1]);
    listener = receive_listener(pair[0]);
    if (listener >= 0) capture_internal::hurry(listener);
  }
  release_stdio();
  State state{.command = command};
  int64_t last_kill = 0;
  for (;;) {
    bool reaped = false;
    if (reap_children(state, reaped)) ::_exit(0);
    if (reaped && state.phase == Phase::kTerminating) terminate_orphans(state.terminated);
    if (state.phase == Phase::kTerminating && now_ms() >= state.kill_at) {
      state.phase = Phase::kKilling;
    }
    if (state.phase == Phase::kKilling && now_ms() - last_kill >= kKillRoundMs) {
      signal_descendants(SIGKILL, state.command);
      last_kill = now_ms();
    }
    int64_t wait_ms = state.phase == Phase::kKilling       ? kKillRoundMs
                      : state.phase == Phase::kTerminating ? state.kill_at - now_ms()
                                                           : -1;
    // A deadline just passed is no wait at all, never -1 (forever).
    if (wait_ms < 0 && state.phase != Phase::kRunning) wait_ms = 0;
    timespec ts{wait_ms / 1000, (wait_ms % 1000) * 1000000};
    // The listener is served in every phase: a command cleaning up after
    // SIGTERM still writes, and waits for its answer.
    pollfd polled[2] = {{listener, POLLIN, 0}, {kControlFd, POLLIN, 0}};
    pollfd* first = listener >= 0 ? &polled[0] : &polled[1];
    nfds_t count = (listener >= 0 ? 1 : 0) + (state.phase == Phase::kKilling ? 0 : 1);
    // SIGCHLD is unblocked only inside ppoll, so no exit is missed.
    int ready = ::ppoll(first, count, wait_ms < 0 ? nullptr : &ts, &waitmask);
    if (ready > 0 && listener >= 0 && polled[0].revents) {
      bool open = (polled[0].revents & POLLIN) && capture_internal::serve_one(listener, args.plan);
      if (!open || (polled[0].revents & (POLLHUP | POLLERR | POLLNVAL))) {
        ::close(listener);  // every filtered process is gone
        listener = -1;
      }
    }
    if (ready > 0 && state.phase != Phase::kKilling && polled[1].revents) read_command(state);
  }
}

// Moves `fds` to 0..4 and closes every other descriptor the server had.
// -1 entries become /dev/null.
void install_fixed_fds(const int (&fds)[kFixedFds], int null_fd) {
  int moved[kFixedFds];
  // First above the targets, so no dup2 clobbers a source not yet moved.
  for (int i = 0; i < kFixedFds; ++i) {
    moved[i] = ::fcntl(fds[i] >= 0 ? fds[i] : null_fd, F_DUPFD, kFixedFds);
  }
  for (int i = 0; i < kFixedFds; ++i) ::dup2(moved[i], i);
  if (::syscall(SYS_close_range, kFixedFds, ~0U, 0) != 0) {
    for (int fd = kFixedFds; fd < 65536; ++fd) ::close(fd);
  }
}

struct Channel {
  UniqueFd ours;
  UniqueFd theirs;
};

Result<Channel> make_status_pipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return Error::FromErrno(errno, "pipe");
  return Channel{UniqueFd(fds[0]), UniqueFd(fds[1])};
}

// A seqpacket pair: commands keep their boundaries and are sent with
// MSG_NOSIGNAL from any thread.
Result<Channel> make_control_channel() {
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, fds) != 0) {
    return Error::FromErrno(errno, "socketpair");
  }
  return Channel{UniqueFd(fds[0]), UniqueFd(fds[1])};
}

void set_nonblocking(int fd) {
  int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

// The command's pid: its own first word on the status pipe, written before exec.
Result<pid_t> read_command_pid(int status_fd) {
  int32_t pid = -1;
  ssize_t n;
  do {
    n = ::read(status_fd, &pid, sizeof pid);
  } while (n < 0 && errno == EINTR);
  if (n != static_cast<ssize_t>(sizeof pid) || pid <= 0) {
    return Error{ErrorCode::kIo, "the process supervisor could not start the command"};
  }
  return static_cast<pid_t>(pid);
}

}  // namespace

Result<ProcessTree> ProcessTree::launch(const TreeSpec& spec) {
  HERMES_ASSIGN_OR_RETURN(Channel status, make_status_pipe());
  HERMES_ASSIGN_OR_RETURN(Channel control, make_control_channel());
  UniqueFd null_fd(::open("/dev/null", O_RDWR | O_CLOEXEC));
  if (!null_fd.valid()) return Error::FromErrno(errno, "open \"/dev/null\"");
  CStringArray argv(spec.argv), envp(spec.env);
  ExecArgs args{spec.program.c_str(), argv.get(), envp.get(), spec.cwd.c_str(),
                spec.controlling_terminal};
  args.fenced = spec.write_fence_fd >= 0;
  if (spec.capture != nullptr) {
    args.capture = true;
    capture_internal::make_plan(*spec.capture, kCaptureDirFd, kLooksFd, args.plan);
  }
  become_subreaper();
  SpawnRecord record;
  pid_t pid = ::fork();
  if (pid < 0) return Error::FromErrno(errno, "fork");
  if (pid == 0) {
    install_fixed_fds({spec.stdin_fd, spec.stdout_fd, spec.stderr_fd, control.theirs.get(),
                       status.theirs.get(), spec.capture ? spec.capture->dir.get() : -1,
                       spec.capture ? spec.capture->looks.get() : -1, spec.write_fence_fd},
                      null_fd.get());
    ::setsid();
    ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    ::prctl(PR_SET_NAME, "hermes-tree", 0, 0, 0);
    supervise(args);
  }
  record.record(pid);
  UniqueFd supervisor_fd(static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)));
  status.theirs.reset();
  control.theirs.reset();
  ProcessTree tree(pid, -1, std::move(control.ours), std::move(status.ours),
                   std::move(supervisor_fd));
  HERMES_ASSIGN_OR_RETURN(tree.command_, read_command_pid(tree.status_.get()));
  set_nonblocking(tree.status_.get());
  return tree;
}

ProcessTree::ProcessTree(pid_t supervisor, pid_t command, UniqueFd control, UniqueFd status,
                         UniqueFd supervisor_fd)
    : supervisor_(supervisor),
      command_(command),
      control_(std::move(control)),
      status_(std::move(status)),
      supervisor_fd_(std::move(supervisor_fd)) {}

ProcessTree::ProcessTree(ProcessTree&& other) noexcept
    : supervisor_(std::exchange(other.supervisor_, -1)),
      command_(std::exchange(other.command_, -1)),
      control_(std::move(other.control_)),
      status_(std::move(other.status_)),
      supervisor_fd_(std::move(other.supervisor_fd_)),
      escaped_(other.escaped_),
      status_closed_(other.status_closed_.load()) {}

ProcessTree::~ProcessTree() {
  if (supervisor_ <= 0) return;
  control_.reset();  // EOF: the supervisor kills everything and exits
  if (wait_gone(kReapLimit)) {
    reap();
    return;
  }
  // Something in the tree can't die yet; don't hold the caller for it.
  std::thread([pid = supervisor_] {
    while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
    }
    forget_child(pid);
  }).detach();
}

bool ProcessTree::read_status(std::optional<int>& exit_code) {
  int32_t code = 0;
  ssize_t n = ::read(status_.get(), &code, sizeof code);
  if (n == static_cast<ssize_t>(sizeof code)) exit_code = code;
  if (n == 0) status_closed_ = true;
  return n != 0;
}

void ProcessTree::send(char op, int value) const {
  // A stopped supervisor (the command may SIGSTOP its parent) could not obey;
  // it is our unreaped child, so its pid is still its own.
  if (supervisor_ > 0) ::kill(supervisor_, SIGCONT);
  Command command{op, value};
  [[maybe_unused]] ssize_t n = ::send(control_.get(), &command, sizeof command, MSG_NOSIGNAL);
}

void ProcessTree::signal(int sig) const {
  if (sig == SIGKILL) return kill();
  send(kSignalOp, sig);
}

void ProcessTree::terminate(std::chrono::milliseconds grace) const {
  send(kTerminateOp, static_cast<int>(std::min<int64_t>(grace.count(), INT32_MAX)));
}

void ProcessTree::kill() const { send(kKillOp, 0); }

bool ProcessTree::wait_gone(std::chrono::milliseconds limit) const {
  if (supervisor_ <= 0) return true;
  if (!supervisor_fd_.valid()) {
    // No pidfds: look for the supervisor's exit without reaping it.
    auto until = std::chrono::steady_clock::now() + limit;
    for (;;) {
      if (peek_exit(supervisor_).si_pid == supervisor_) return true;
      if (std::chrono::steady_clock::now() >= until) return false;
      ::usleep(10'000);
    }
  }
  pollfd p{supervisor_fd_.get(), POLLIN, 0};
  int ms = static_cast<int>(std::min<int64_t>(limit.count(), INT32_MAX));
  int ready;
  do {
    ready = ::poll(&p, 1, ms);
  } while (ready < 0 && errno == EINTR);
  return ready > 0;
}

std::vector<pid_t> ProcessTree::members() const {
  if (supervisor_ <= 0 || wait_gone(std::chrono::milliseconds(0))) return {};
  std::vector<pid_t> tree(kMaxScannedProcesses);
  int n = collect_descendants(supervisor_, tree.data(), kMaxScannedProcesses, [](pid_t) {});
  tree.resize(static_cast<size_t>(n));
  return tree;
}

bool ProcessTree::escaped() const {
  if (supervisor_ <= 0) return escaped_;
  siginfo_t info = peek_exit(supervisor_);
  // The kernel closes a dying process's pipes before its parent can wait
  // for it: after EOF on the status pipe, wait until the supervisor can be
  // waited for, or a kill in that gap would pass for an ordinary exit. Its
  // pidfd may turn readable a moment before waitid sees it: ask again.
  if (status_closed_ && info.si_pid != supervisor_) {
    wait_gone(kExitLimit);
    const auto until = std::chrono::steady_clock::now() + kExitLimit;
    while ((info = peek_exit(supervisor_)).si_pid != supervisor_ &&
           std::chrono::steady_clock::now() < until)
      ::usleep(200);
  }
  return info.si_pid == supervisor_ && info.si_code != CLD_EXITED;
}

void ProcessTree::reap() {
  if (supervisor_ <= 0) return;
  int status = 0;
  pid_t r;
  do {
    r = ::waitpid(supervisor_, &status, 0);
  } while (r < 0 && errno == EINTR);
  escaped_ = r == supervisor_ && WIFSIGNALED(status);
  forget_child(supervisor_);
  supervisor_ = -1;
  // What the supervisor held came back to this process: end it.
  if (escaped_) end_adopted();
}

}  // namespace hermes::proc
