// SPDX-License-Identifier: MIT
#include "tools/execute_code/local_kernel.h"

#include "core/strings.h"
#include "tools/execute_code/interrupt_schedule.h"
#include "tools/execute_code/kernel_driver.h"
#include "tools/execute_code/stop_wake.h"

#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <optional>

namespace hermes::execute_code {
namespace {

using Clock = std::chrono::steady_clock;
using proc::UniqueFd;

// After the tree is gone nothing can still write; this only bounds the wait
// for a pipe end that somehow outlived it.
constexpr std::chrono::milliseconds kDrainGrace{500};
// An image larger than this is a broken protocol: the kernel is killed.
constexpr size_t kMaxImageBytes = 32u << 20;

// Sets SO_SNDTIMEO so a kernel that stops reading cannot block us for ever.
void set_send_timeout(int fd, std::chrono::milliseconds timeout) {
  timeval tv{.tv_sec = static_cast<time_t>(timeout.count() / 1000),
             .tv_usec = static_cast<suseconds_t>(timeout.count() % 1000 * 1000)};
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

}  // namespace

// The poll loop over one cell: outputs, the control replies, the tree's
// status, the stop and the deadlines. Not thread-safe.
class LocalKernel::CellLoop {
 public:
  CellLoop(LocalKernel& kernel, int wake_fd, const CellRequest& request)
      : kernel_(kernel),
        status_(request.status),
        schedule_(request.grace),
        deadline_(Clock::now() + request.timeout),
        fds_{{{kernel.out_.read.get(), POLLIN, 0},
              {kernel.err_.read.get(), POLLIN, 0},
              {kernel.control_.get(), POLLIN, 0},
              {kernel.tree_.status_fd(), POLLIN, 0},
              {wake_fd, POLLIN, 0}}} {}

  void run(CellResult& result) {
    while (!done_ &&
           (fds_[kStatus].fd >= 0 || (has_open_output() && Clock::now() < drain_until_))) {
      ::poll(fds_.data(), fds_.size(), poll_timeout_ms());
      read_outputs(result.run.output);
      if (fds_[kControl].revents) read_control(result);
      if (done_) break;
      if (fds_[kStatus].revents) on_status(result);
      if (fds_[kWake].revents) interrupt(RunEnd::kInterrupted, result);
      if (!schedule_.started() && Clock::now() >= deadline_) interrupt(RunEnd::kTimedOut, result);
      if (!result.kernel_lost && schedule_.repeat_due(Clock::now())) send_sigint();
      if (!result.kernel_lost && schedule_.kill_due(Clock::now())) lose(result);
    }
    // The cell flushed before its reply: what it wrote is in the pipes.
    read_outputs(result.run.output, /*all=*/true);
  }

 private:
  enum Slot { kStdout, kStderr, kControl, kStatus, kWake };

  bool has_open_output() const { return fds_[kStdout].fd >= 0 || fds_[kStderr].fd >= 0; }

  int poll_timeout_ms() const {
    Clock::time_point until = fds_[kStatus].fd < 0   ? drain_until_
                              : !schedule_.started() ? deadline_
                                                     : schedule_.next_event();
    if (fds_[kStatus].fd >= 0 && schedule_.started() && lost_)
      return -1;  // the supervisor bounds this
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
    return static_cast<int>(std::max<int64_t>(0, left.count() + 1));
  }

  void read_outputs(ScriptOutput& output, bool all = false) {
    for (Slot slot : {kStdout, kStderr}) {
      if (fds_[slot].fd < 0 || (!all && !fds_[slot].revents)) continue;
      auto& capture = slot == kStdout ? output.stdout_capture : output.stderr_capture;
      if (!drain(fds_[slot].fd, capture, status_)) fds_[slot].fd = -1;
    }
  }

  void read_control(CellResult& result) {
    char buf[65536];
    for (;;) {
      ssize_t n = ::recv(fds_[kControl].fd, buf, sizeof buf, MSG_DONTWAIT);
      if (n > 0) {
        pending_.append(buf, static_cast<size_t>(n));
        continue;
      }
      if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
        // The kernel is going: its status tells how.
        fds_[kControl].fd = -1;
        kernel_.gone_ = true;
      }
      break;
    }
    while (!done_ && parse_reply(result)) {
    }
  }

  // Consumes one complete reply from `pending_`; false when it needs more.
  bool parse_reply(CellResult& result) {
    size_t eol = pending_.find('\n');
    if (eol == std::string::npos) return false;
    std::string_view line(pending_.data(), eol);
    if (starts_with(line, "image ")) {
      auto size = parse_int(line.substr(6));
      if (!size || *size < 0 || static_cast<size_t>(*size) > kMaxImageBytes) return broken(result);
      if (pending_.size() < eol + 1 + static_cast<size_t>(*size)) return false;
      result.images.push_back(pending_.substr(eol + 1, static_cast<size_t>(*size)));
      pending_.erase(0, eol + 1 + static_cast<size_t>(*size));
      return true;
    }
    auto end = starts_with(line, "done ") ? parse_cell_end(line.substr(5)) : std::nullopt;
    if (!end) return broken(result);
    record_cell_end(*end, schedule_.started(), result);
    if (result.memory_exceeded) lose(result);
    pending_.erase(0, eol + 1);
    done_ = true;
    return true;
  }

  bool broken(CellResult& result) {
    lose(result);
    fds_[kControl].fd = -1;
    return false;
  }

  void on_status(CellResult& result) {
    std::optional<int> code;
    bool open = kernel_.tree_.read_status(code);
    kernel_.gone_ = true;
    if (code) {
      // The kernel itself ended: a crash, os._exit, or our kill.
      if (!lost_) result.run.exit_code = *code;
      result.kernel_lost = true;
      lost_ = true;
      kernel_.tree_.kill();
    }
    if (!open) {
      fds_[kStatus].fd = -1;
      drain_until_ = Clock::now() + kDrainGrace;
    }
  }

  void interrupt(RunEnd end, CellResult& result) {
    fds_[kWake].fd = -1;
    if (!schedule_.start(Clock::now())) return;
    result.run.end = end;
    send_sigint();
  }

  // SIGINT to the kernel's process group, as a terminal's Ctrl-C: the cell
  // gets KeyboardInterrupt; a daemon it started in a session of its own is
  // spared.
  void send_sigint() {
    if (!kernel_.gone_) ::kill(-kernel_.tree_.pid(), SIGINT);
  }

  // The cell did not stop: the whole tree goes, and the state with it.
  void lose(CellResult& result) {
    result.kernel_lost = true;
    lost_ = true;
    kernel_.gone_ = true;
    kernel_.tree_.kill();
  }

  LocalKernel& kernel_;
  registry::CallStatus* status_;
  InterruptSchedule schedule_;
  Clock::time_point deadline_;
  Clock::time_point drain_until_{};
  std::array<pollfd, 5> fds_;
  std::string pending_;  // control bytes not yet parsed
  bool lost_ = false;
  bool done_ = false;
};

Result<std::unique_ptr<Kernel>> LocalKernel::start(const KernelSpec& spec) {
  HERMES_ASSIGN_OR_RETURN(StagingDir staging, StagingDir::create());
  const std::string driver = staging.path() + "/hermes_kernel.py";
  HERMES_TRY(write_private_file(staging.path() + "/hermes_tools.py", spec.module_source));
  HERMES_TRY(write_private_file(driver, kernel_driver_source(KernelLink::kSocket)));
  HERMES_ASSIGN_OR_RETURN(std::unique_ptr<rpc::RpcServer> server,
                          rpc::RpcServer::listen(staging.path()));
  int pair[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
    return Error::FromErrno(errno, "socketpair");
  }
  UniqueFd ours(pair[0]), theirs(pair[1]);
  HERMES_ASSIGN_OR_RETURN(OutputPipe out, make_output_pipe());
  HERMES_ASSIGN_OR_RETURN(OutputPipe err, make_output_pipe());
  HERMES_ASSIGN_OR_RETURN(
      proc::ProcessTree tree,
      proc::ProcessTree::launch(
          {.program = spec.interpreter,
           .argv = {spec.interpreter, driver, std::to_string(spec.memory_bytes)},
           .env = python_env(spec.env, staging.path(), *server),
           .cwd = spec.cwd.empty() ? staging.path() : spec.cwd,
           .stdin_fd = theirs.get(),
           .stdout_fd = out.write.get(),
           .stderr_fd = err.write.get(),
           .write_fence_fd = spec.write_fence_fd,
           .capture = spec.write_capture.get()}));
  out.write.reset();
  err.write.reset();
  return std::unique_ptr<Kernel>(new LocalKernel(std::move(staging), std::move(server),
                                                 std::move(tree), std::move(ours), std::move(out),
                                                 std::move(err)));
}

LocalKernel::LocalKernel(StagingDir staging, std::unique_ptr<rpc::RpcServer> server,
                         proc::ProcessTree tree, UniqueFd control, OutputPipe out, OutputPipe err)
    : staging_(std::move(staging)),
      server_(std::move(server)),
      tree_(std::move(tree)),
      control_(std::move(control)),
      out_(std::move(out)),
      err_(std::move(err)) {
  rpc_thread_ = std::jthread([this] { server_->serve(bridge_); });
}

LocalKernel::~LocalKernel() {
  tree_.kill();
  server_->stop();
  if (rpc_thread_.joinable()) rpc_thread_.join();
  tree_.reap();
}

bool LocalKernel::alive() const {
  if (gone_) return false;
  // The status pipe turns readable when the kernel's exit code arrives.
  pollfd status{tree_.status_fd(), POLLIN, 0};
  return ::poll(&status, 1, 0) == 0;
}

void LocalKernel::kill() const { tree_.kill(); }

bool LocalKernel::send_code(const std::string& code, std::chrono::milliseconds timeout) {
  std::string message = std::to_string(code.size()) + "\n" + code;
  set_send_timeout(control_.get(), std::max(timeout, std::chrono::milliseconds(1)));
  for (size_t done = 0; done < message.size();) {
    ssize_t n = ::send(control_.get(), message.data() + done, message.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

CellResult LocalKernel::run_cell(const CellRequest& request, rpc::RpcHandler& handler,
                                 std::stop_source& stop) {
  CellResult result;
  {
    StopWake wake(stop.get_token());
    bridge_.attach(&handler);
    if (!send_code(request.code, request.timeout)) kill();
    CellLoop(*this, wake.fd(), request).run(result);
  }
  stop.request_stop();
  bridge_.attach(nullptr);
  return result;
}

}  // namespace hermes::execute_code
