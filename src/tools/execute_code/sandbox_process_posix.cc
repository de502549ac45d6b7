// SPDX-License-Identifier: MIT
// The supervisor behind sandbox_process.h. Everything after fork() runs in a
// copy of a multithreaded server, so it only makes async-signal-safe system
// calls on stack memory: no allocation, no locks, no exceptions.
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tools/execute_code/sandbox_process.h"

namespace hermes::execute_code {
namespace {

// The supervisor's descriptors, moved to fixed numbers right after fork.
constexpr int kNullFd = 0, kStdoutFd = 1, kStderrFd = 2, kControlFd = 3, kStatusFd = 4;
constexpr int kFixedFds = 5;
constexpr int kMaxProcesses = 4096;
constexpr char kTerminateCommand = 'T';

// What the script child needs, prepared before fork (nothing may allocate
// afterwards).
struct ExecArgs {
  const char* program;
  char* const* argv;
  char* const* envp;
  const char* cwd;
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

// A decimal number at the start of `s`; -1 when there is none.
pid_t leading_number(const char* s) {
  if (*s < '0' || *s > '9') return -1;
  pid_t value = 0;
  for (; *s >= '0' && *s <= '9'; ++s) value = value * 10 + (*s - '0');
  return value;
}

// The parent of `pid` from /proc/<pid>/stat, or -1 when it is gone.
pid_t read_ppid(pid_t pid) {
  char path[32] = "/proc/";
  char digits[16];
  int n = 0;
  for (pid_t v = pid; v > 0; v /= 10) digits[n++] = static_cast<char>('0' + v % 10);
  int at = 6;
  while (n > 0) path[at++] = digits[--n];
  for (const char* tail = "/stat"; *tail;) path[at++] = *tail++;
  path[at] = '\0';
  int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  char buf[512];
  ssize_t len = ::read(fd, buf, sizeof buf - 1);
  ::close(fd);
  if (len <= 0) return -1;
  buf[len] = '\0';
  // The command name may hold ')' and spaces: fields resume after the last
  // ')' as " <state> <ppid> …".
  const char* close_paren = nullptr;
  for (const char* p = buf; *p; ++p) {
    if (*p == ')') close_paren = p;
  }
  if (!close_paren || close_paren + 4 >= buf + len) return -1;
  return leading_number(close_paren + 4);
}

bool contains(const pid_t* pids, int count, pid_t pid) {
  for (int i = 0; i < count; ++i) {
    if (pids[i] == pid) return true;
  }
  return false;
}

// Every process's (pid, ppid), read from /proc.
int scan_processes(pid_t* pids, pid_t* ppids, int capacity) {
  int dir = ::open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return 0;
  alignas(dirent64) char buf[8192];
  int count = 0;
  for (long n; (n = ::syscall(SYS_getdents64, dir, buf, sizeof buf)) > 0;) {
    for (long off = 0; off < n;) {
      const auto* entry = reinterpret_cast<const dirent64*>(buf + off);
      off += entry->d_reclen;
      pid_t pid = leading_number(entry->d_name);
      pid_t ppid = pid > 0 && count < capacity ? read_ppid(pid) : -1;
      if (ppid > 0) {
        pids[count] = pid;
        ppids[count++] = ppid;
      }
    }
  }
  ::close(dir);
  return count;
}

// Sends `sig` to every descendant of the supervisor. A process that forks
// meanwhile is caught by the next round: when its parent dies it is
// reparented to us (we are its subreaper).
void signal_descendants(int sig) {
  pid_t pids[kMaxProcesses], ppids[kMaxProcesses], tree[kMaxProcesses];
  int count = scan_processes(pids, ppids, kMaxProcesses);
  int in_tree = 1;
  tree[0] = ::getpid();
  for (bool grew = true; grew;) {
    grew = false;
    for (int i = 0; i < count; ++i) {
      if (contains(tree, in_tree, pids[i]) || !contains(tree, in_tree, ppids[i])) continue;
      ::kill(pids[i], sig);
      tree[in_tree++] = pids[i];
      grew = true;
    }
  }
}

// Reaps every exited child, reporting the script's code on the status pipe.
// True when no child is left at all.
bool reap_children(pid_t script) {
  for (;;) {
    int status = 0;
    pid_t pid = ::waitpid(-1, &status, WNOHANG);
    if (pid <= 0) return pid < 0 && errno == ECHILD;
    if (pid != script) continue;
    int code = WIFSIGNALED(status) ? -WTERMSIG(status) : WEXITSTATUS(status);
    [[maybe_unused]] ssize_t w = ::write(kStatusFd, &code, sizeof code);
  }
}

[[noreturn]] void exec_script(const ExecArgs& args) {
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
  ::setpgid(0, 0);
  if (::chdir(args.cwd) != 0) {
    write_text(kStderrFd, "execute_code: cannot enter the working directory\n");
    ::_exit(127);
  }
  ::execve(args.program, args.argv, args.envp);
  write_text(kStderrFd, "execute_code: cannot start the Python interpreter\n");
  ::_exit(127);
}

void on_sigchld(int) {}

enum class Phase { kRunning, kTerminating, kKilling };

// Reads one command; EOF or an unknown byte means kill.
Phase read_command(Phase phase, int64_t& kill_at) {
  char command = 0;
  ssize_t n = ::read(kControlFd, &command, 1);
  if (n < 0 && errno == EINTR) return phase;
  if (n == 1 && command == kTerminateCommand) {
    if (phase != Phase::kRunning) return phase;
    signal_descendants(SIGTERM);
    kill_at = now_ms() + kTerminateGraceMs;
    return Phase::kTerminating;
  }
  return Phase::kKilling;
}

[[noreturn]] void supervise(const ExecArgs& args) {
  struct sigaction sa {};
  sa.sa_handler = on_sigchld;
  ::sigaction(SIGCHLD, &sa, nullptr);
  // The supervisor is steered through its control socket only.
  sa.sa_handler = SIG_IGN;
  for (int sig : {SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGQUIT}) ::sigaction(sig, &sa, nullptr);
  sigset_t chld, waitmask;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  ::sigprocmask(SIG_BLOCK, &chld, nullptr);
  sigemptyset(&waitmask);
  pid_t script = ::fork();
  if (script == 0) exec_script(args);
  if (script < 0) write_text(kStderrFd, "execute_code: fork failed\n");
  Phase phase = script < 0 ? Phase::kKilling : Phase::kRunning;
  int64_t kill_at = 0;
  for (;;) {
    if (reap_children(script) && phase != Phase::kRunning) ::_exit(0);
    if (phase == Phase::kTerminating && now_ms() >= kill_at) phase = Phase::kKilling;
    if (phase == Phase::kKilling) signal_descendants(SIGKILL);
    int64_t wait_ms = phase == Phase::kKilling       ? 10
                      : phase == Phase::kTerminating ? kill_at - now_ms()
                                                     : -1;
    timespec ts{wait_ms / 1000, (wait_ms % 1000) * 1000000};
    pollfd control{kControlFd, POLLIN, 0};
    // SIGCHLD is unblocked only inside ppoll, so no exit is missed.
    int ready = ::ppoll(&control, phase == Phase::kKilling ? 0 : 1,
                        wait_ms < 0 ? nullptr : &ts, &waitmask);
    if (ready > 0 && control.revents) phase = read_command(phase, kill_at);
  }
}

// Moves `fds` to 0..4 and closes every other descriptor the server had.
void install_fixed_fds(const int (&fds)[kFixedFds]) {
  int moved[kFixedFds];
  // First above the targets, so no dup2 clobbers a source not yet moved.
  for (int i = 0; i < kFixedFds; ++i) moved[i] = ::fcntl(fds[i], F_DUPFD, kFixedFds);
  for (int i = 0; i < kFixedFds; ++i) ::dup2(moved[i], i);
  if (::close_range(kFixedFds, ~0U, 0) != 0) {
    for (int fd = kFixedFds; fd < 65536; ++fd) ::close(fd);
  }
}

struct Pipe {
  UniqueFd read;
  UniqueFd write;
};

Result<Pipe> make_pipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return Error::FromErrno(errno, "pipe");
  return Pipe{UniqueFd(fds[0]), UniqueFd(fds[1])};
}

// A socket pair, so commands can be sent with MSG_NOSIGNAL.
Result<Pipe> make_control_channel() {
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) {
    return Error::FromErrno(errno, "socketpair");
  }
  return Pipe{UniqueFd(fds[1]), UniqueFd(fds[0])};
}

void set_nonblocking(int fd) {
  int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

}  // namespace

Result<SandboxProcess> SandboxProcess::launch(const LaunchSpec& spec) {
  HERMES_ASSIGN_OR_RETURN(Pipe out, make_pipe());
  HERMES_ASSIGN_OR_RETURN(Pipe err, make_pipe());
  HERMES_ASSIGN_OR_RETURN(Pipe status, make_pipe());
  HERMES_ASSIGN_OR_RETURN(Pipe control, make_control_channel());
  UniqueFd null_fd(::open("/dev/null", O_RDONLY | O_CLOEXEC));
  if (!null_fd.valid()) return Error::FromErrno(errno, "open \"/dev/null\"");
  CStringArray argv(spec.argv), envp(spec.env);
  ExecArgs args{spec.program.c_str(), argv.get(), envp.get(), spec.cwd.c_str()};
  pid_t pid = ::fork();
  if (pid < 0) return Error::FromErrno(errno, "fork");
  if (pid == 0) {
    install_fixed_fds({null_fd.get(), out.write.get(), err.write.get(),
                       control.read.get(), status.write.get()});
    ::setsid();
    ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    supervise(args);
  }
  for (int fd : {out.read.get(), err.read.get(), status.read.get()}) set_nonblocking(fd);
  return SandboxProcess(pid, std::move(out.read), std::move(err.read),
                        std::move(control.write), std::move(status.read));
}

SandboxProcess::SandboxProcess(pid_t pid, UniqueFd out, UniqueFd err,
                               UniqueFd control, UniqueFd status)
    : supervisor_(pid),
      stdout_(std::move(out)),
      stderr_(std::move(err)),
      control_(std::move(control)),
      status_(std::move(status)) {}

SandboxProcess::SandboxProcess(SandboxProcess&& other) noexcept
    : supervisor_(std::exchange(other.supervisor_, -1)),
      stdout_(std::move(other.stdout_)),
      stderr_(std::move(other.stderr_)),
      control_(std::move(other.control_)),
      status_(std::move(other.status_)) {}

SandboxProcess::~SandboxProcess() {
  if (supervisor_ <= 0) return;
  end_tree(EndMode::kKill);
  reap();
}

bool SandboxProcess::read_status(std::optional<int>& exit_code) {
  int code = 0;
  ssize_t n = ::read(status_.get(), &code, sizeof code);
  if (n == static_cast<ssize_t>(sizeof code)) exit_code = code;
  return n != 0;
}

void SandboxProcess::end_tree(EndMode mode) {
  if (mode == EndMode::kKill) {
    control_.reset();  // EOF: the supervisor kills everything and exits
  } else if (control_.valid()) {
    [[maybe_unused]] ssize_t n = ::send(control_.get(), &kTerminateCommand, 1, MSG_NOSIGNAL);
  }
}

void SandboxProcess::reap() {
  if (supervisor_ <= 0) return;
  int status = 0;
  while (::waitpid(supervisor_, &status, 0) < 0 && errno == EINTR) {
  }
  supervisor_ = -1;
}

}  // namespace hermes::execute_code
