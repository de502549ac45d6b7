// SPDX-License-Identifier: MIT
// run_bounded: one poll loop over the output fd, the child's pidfd and an
// eventfd woken by the stop_token, so no sleeping or busy-waiting.
#include "proc/run.h"

#include <poll.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <optional>

namespace hermes::proc {
namespace {

using Clock = std::chrono::steady_clock;

// Bounds one burst of reads so a flood of output cannot starve the deadline.
constexpr int kReadsPerWake = 32;
// Fallback poll interval when the kernel gives no pidfd.
constexpr std::chrono::milliseconds kReapPoll{20};
// How long a SIGKILLed tree may take to be gone before the run returns anyway.
constexpr std::chrono::seconds kKillLimit{5};

int remaining_ms(Clock::time_point until) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
  return left.count() < 0 ? 0 : static_cast<int>(std::min<int64_t>(left.count(), 1 << 30));
}

// Reads what is available. Returns false once the stream has ended
// (EOF, or EIO from a pty whose slave side closed).
bool read_available(int fd, const OutputCallback& on_output) {
  char buf[65536];
  for (int i = 0; i < kReadsPerWake; ++i) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n > 0) {
      on_output(std::string_view(buf, static_cast<size_t>(n)));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return true;
    return false;
  }
  return true;
}

bool wait_exit(ChildProcess& child, std::chrono::milliseconds grace) {
  auto until = Clock::now() + grace;
  while (!child.try_reap()) {
    int ms = remaining_ms(until);
    if (ms == 0) return false;
    if (child.pid_fd() >= 0) {
      pollfd p{child.pid_fd(), POLLIN, 0};
      ::poll(&p, 1, ms);
    } else {
      ::usleep(static_cast<useconds_t>(std::min<int>(ms, kReapPoll.count()) * 1000));
    }
  }
  return true;
}

}  // namespace

Termination terminate_group(ChildProcess& child, std::chrono::milliseconds grace,
                            int first_signal) {
  if (auto done = child.exit_status()) return {*done};
  const Clock::time_point until = Clock::now() + grace;
  auto left = [&] { return std::chrono::milliseconds(remaining_ms(until)); };
  child.signal_group(first_signal);
  if (first_signal != SIGTERM && wait_exit(child, grace)) child.signal_group(SIGTERM);
  // A whole tree gets its grace as a whole: a descendant cleaning up after
  // the child exited is not cut short.
  bool ended = child.whole_tree() ? child.wait_tree_gone(left()) : wait_exit(child, left());
  if (!ended) child.signal_group(SIGKILL);
  child.wait_tree_gone(kKillLimit);
  ExitStatus status = child.wait();
  // Grandchildren that ignored SIGTERM still share the group.
  child.signal_group(SIGKILL);
  return {status, !ended};
}

RunOutcome run_bounded(ChildProcess& child, const RunLimits& limits, std::stop_token stop,
                       const OutputCallback& on_output) {
  UniqueFd wake(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  std::stop_callback on_stop(stop, [&wake] {
    uint64_t one = 1;
    [[maybe_unused]] ssize_t n = ::write(wake.get(), &one, sizeof one);
  });
  const bool has_deadline = limits.timeout.count() > 0;
  const Clock::time_point deadline = Clock::now() + limits.timeout;
  bool output_open = child.output_fd() >= 0;
  std::optional<Clock::time_point> exited_at;
  for (;;) {
    if (!exited_at && child.try_reap()) exited_at = Clock::now();
    if (exited_at && (!output_open || Clock::now() >= *exited_at + limits.drain_grace)) break;
    const bool cancelled = stop.stop_requested();
    if (cancelled || (has_deadline && Clock::now() >= deadline)) {
      Termination ended = terminate_group(child, limits.kill_grace, limits.stop_signal);
      return {cancelled ? RunEnd::kCancelled : RunEnd::kTimedOut, ended.status, ended.forced};
    }
    int wait_ms = -1;
    if (has_deadline) wait_ms = remaining_ms(deadline);
    if (exited_at) wait_ms = remaining_ms(*exited_at + limits.drain_grace);
    if (!exited_at && child.pid_fd() < 0) {
      wait_ms = wait_ms < 0 ? kReapPoll.count() : std::min<int>(wait_ms, kReapPoll.count());
    }
    pollfd fds[3];
    nfds_t n = 0;
    fds[n++] = {wake.get(), POLLIN, 0};
    int out_index = output_open ? static_cast<int>(n) : -1;
    if (output_open) fds[n++] = {child.output_fd(), POLLIN, 0};
    if (!exited_at && child.pid_fd() >= 0) fds[n++] = {child.pid_fd(), POLLIN, 0};
    if (::poll(fds, n, wait_ms) < 0 && errno != EINTR) break;
    if (out_index >= 0 && fds[out_index].revents != 0) {
      output_open = read_available(child.output_fd(), on_output);
    }
  }
  return {RunEnd::kExited, child.wait()};
}

}  // namespace hermes::proc
