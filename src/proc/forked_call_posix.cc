// SPDX-License-Identifier: MIT
// run_forked: the child is a ChildProcess of its own process group, driven
// by run_bounded like any spawned command; only its start differs.
#include "proc/child_ledger.h"
#include "proc/forked_call.h"
#include "proc/run.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <new>

namespace hermes::proc {
namespace {

using Clock = std::chrono::steady_clock;

// A deadline further away counts as this (a far deadline in milliseconds
// must not overflow the clock's nanoseconds).
constexpr std::chrono::hours kLongest{24};

// The child's exit codes besides 0.
constexpr int kOutOfMemory = 3;
constexpr int kThrew = 4;

// This process's address space in bytes (read before fork: the child
// inherits all of it, so a cap must start from here).
size_t address_space() {
  size_t pages = 0;
  std::ifstream("/proc/self/statm") >> pages;
  return pages * static_cast<size_t>(::sysconf(_SC_PAGESIZE));
}

void set_limit(int resource, rlim_t soft, rlim_t hard) {
  rlimit r{soft, hard};
  ::setrlimit(resource, &r);
}

// Everything between fork and `work`: async-signal-safe calls only.
void enter_child(pid_t parent, int out_fd, rlim_t cpu_seconds, rlim_t address_cap) {
  ::setpgid(0, 0);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(1);
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_handler = SIG_DFL;
  for (int sig = 1; sig < NSIG; ++sig) ::sigaction(sig, &sa, nullptr);  // KILL/STOP refuse
  sigset_t empty;
  sigemptyset(&empty);
  ::sigprocmask(SIG_SETMASK, &empty, nullptr);
  // The server's stdin and stdout may be the MCP stream: the child must not
  // read or write them. stderr stays for a sanitizer's report.
  int null_fd = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  if (null_fd < 0 || ::dup2(null_fd, 0) < 0 || ::dup2(null_fd, 1) < 0) ::_exit(1);
  ::close(null_fd);
  // Nothing the child could exec gains privileges.
  ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
  // Other threads' descriptors (their pipes to other children among them)
  // are not ours to hold open; stdio stays for a sanitizer's report.
  if (out_fd > 3) ::syscall(SYS_close_range, 3U, static_cast<unsigned>(out_fd - 1), 0U);
  ::syscall(SYS_close_range, static_cast<unsigned>(out_fd + 1), ~0U, 0U);
  set_limit(RLIMIT_CORE, 0, 0);
  set_limit(RLIMIT_CPU, cpu_seconds, cpu_seconds + 1);
  if (address_cap > 0) set_limit(RLIMIT_AS, address_cap, address_cap);
}

[[noreturn]] void child_main(const std::function<void(ForkedOutput&)>& work, pid_t parent,
                             int out_fd, rlim_t cpu_seconds, rlim_t address_cap) {
  enter_child(parent, out_fd, cpu_seconds, address_cap);
  int code = 0;
  try {
    ForkedOutput out(out_fd);
    work(out);
  } catch (const std::bad_alloc&) {
    code = kOutOfMemory;
  } catch (...) {
    code = kThrew;
  }
  ::_exit(code);
}

std::string signal_text(int sig) {
  const char* abbrev = ::sigabbrev_np(sig);
  return "was killed by signal " + std::to_string(sig) +
         (abbrev ? std::string(" (SIG") + abbrev + ")" : "");
}

Result<std::string> verdict(ExitStatus status, bool overflow, std::string output,
                            const ForkedLimits& limits) {
  if (overflow)
    return Error::TooLarge("output over " + std::to_string(limits.output_cap) + " bytes");
  if (status.code == -SIGXCPU || (status.code == -SIGKILL && Clock::now() >= limits.deadline))
    return Error::Timeout("out of time");
  if (status.code == kOutOfMemory) return Error::TooLarge("out of memory");
  if (status.signaled()) return Error::Io(signal_text(-status.code));
  if (status.code == kThrew) return Error::Io("threw an exception");
  if (status.code != 0) return Error::Io("exited with code " + std::to_string(status.code));
  return output;
}

Error not_started(const char* call) {
  return Error::Io("could not be started (" + Error::FromErrno(errno, call).message + ")");
}

Result<ChildProcess> start_child(const std::function<void(ForkedOutput&)>& work,
                                 const ForkedLimits& limits, std::chrono::milliseconds left) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return not_started("pipe");
  UniqueFd read_end(fds[0]), write_end(fds[1]);
  rlim_t cpu = static_cast<rlim_t>((left.count() + 999) / 1000);
  rlim_t cap = kMemoryCapWorks && limits.memory_growth > 0
                   ? static_cast<rlim_t>(address_space() + limits.memory_growth)
                   : 0;
  pid_t parent = ::getpid();
  SpawnRecord record;
  pid_t pid = ::fork();
  if (pid < 0) return not_started("fork");
  if (pid == 0) child_main(work, parent, write_end.get(), cpu, cap);
  record.record(pid);
  ::setpgid(pid, pid);  // as the child does: no window where the group is missing
  write_end.reset();
  ::fcntl(read_end.get(), F_SETFL, O_NONBLOCK);
  UniqueFd pid_fd(static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)));
  return ChildProcess(pid, std::move(read_end), UniqueFd(), std::move(pid_fd), TerminalMode::kPipe);
}

}  // namespace

bool ForkedOutput::write(std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

Result<std::string> run_forked(const std::function<void(ForkedOutput&)>& work,
                               const ForkedLimits& limits, std::stop_token stop) {
  if (stop.stop_requested()) return Error::Cancelled("cancelled");
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(limits.deadline - Clock::now());
  if (left.count() <= 0) return Error::Timeout("out of time");
  left = std::min<std::chrono::milliseconds>(left, kLongest);
  HERMES_ASSIGN_OR_RETURN(ChildProcess child, start_child(work, limits, left));
  std::string output;
  bool overflow = false;
  RunLimits run{left, std::chrono::milliseconds(100), std::chrono::milliseconds(0)};
  RunOutcome outcome = run_bounded(child, run, stop, [&](std::string_view bytes) {
    if (overflow) return;
    if (output.size() + bytes.size() > limits.output_cap) {
      overflow = true;
      child.signal_group(SIGKILL);
      return;
    }
    output.append(bytes);
  });
  if (outcome.end == RunEnd::kCancelled) return Error::Cancelled("cancelled");
  if (outcome.end == RunEnd::kTimedOut) return Error::Timeout("out of time");
  return verdict(outcome.status, overflow, std::move(output), limits);
}

}  // namespace hermes::proc
