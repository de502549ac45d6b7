// SPDX-License-Identifier: MIT
#include "tools/execute_code/script_run.h"

#include "proc/process_tree.h"
#include "rpc/rpc_server.h"
#include "tools/execute_code/staging.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <thread>

namespace hermes::execute_code {
namespace {

using proc::ProcessTree;
using proc::UniqueFd;

// After the tree is gone nothing can still write; this only bounds the wait
// for a pipe end that somehow outlived it.
constexpr std::chrono::milliseconds kDrainGrace{500};
// The grace between SIGTERM and SIGKILL (docs/tools/execute_code.md).
constexpr std::chrono::milliseconds kTerminateGrace{5000};

// The poll loop over one running tree. Not thread-safe.
class RunLoop {
 public:
  RunLoop(ProcessTree& tree, int stdout_fd, int stderr_fd, int wake_fd,
          std::chrono::milliseconds timeout, registry::CallStatus* status)
      : tree_(tree),
        status_(status),
        deadline_(std::chrono::steady_clock::now() + timeout),
        fds_{{{stdout_fd, POLLIN, 0},
              {stderr_fd, POLLIN, 0},
              {tree.status_fd(), POLLIN, 0},
              {wake_fd, POLLIN, 0}}} {}

  void run(RunResult& result) {
    while (fds_[kStatus].fd >= 0 || (has_open_output() && now() < drain_until_)) {
      ::poll(fds_.data(), fds_.size(), poll_timeout_ms());
      read_outputs(result.output);
      if (fds_[kStatus].revents) on_status(result);
      if (fds_[kWake].revents) begin_end(RunEnd::kInterrupted, result);
      if (!ending_ && now() >= deadline_) begin_end(RunEnd::kTimedOut, result);
    }
  }

 private:
  enum Slot { kStdout, kStderr, kStatus, kWake };
  using Clock = std::chrono::steady_clock;

  static Clock::time_point now() { return Clock::now(); }
  bool has_open_output() const { return fds_[kStdout].fd >= 0 || fds_[kStderr].fd >= 0; }

  int poll_timeout_ms() const {
    Clock::time_point until = fds_[kStatus].fd < 0 ? drain_until_ : deadline_;
    if (ending_ && fds_[kStatus].fd >= 0) return -1;  // the supervisor bounds this
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - now());
    return static_cast<int>(std::max<int64_t>(0, left.count() + 1));
  }

  void read_outputs(ScriptOutput& output) {
    for (Slot slot : {kStdout, kStderr}) {
      if (fds_[slot].fd < 0 || !fds_[slot].revents) continue;
      auto& capture = slot == kStdout ? output.stdout_capture : output.stderr_capture;
      if (!drain(fds_[slot].fd, capture, status_)) fds_[slot].fd = -1;
    }
  }

  void on_status(RunResult& result) {
    std::optional<int> code;
    bool open = tree_.read_status(code);
    if (code) {
      result.exit_code = *code;
      // The script is done: whatever it left running goes now.
      ending_ = true;
      fds_[kWake].fd = -1;
      tree_.kill();
    }
    if (!open) {
      fds_[kStatus].fd = -1;
      drain_until_ = now() + kDrainGrace;
    }
  }

  void begin_end(RunEnd end, RunResult& result) {
    if (ending_) return;
    ending_ = true;
    result.end = end;
    fds_[kWake].fd = -1;
    tree_.terminate(kTerminateGrace);
  }

  ProcessTree& tree_;
  registry::CallStatus* status_;
  Clock::time_point deadline_;
  Clock::time_point drain_until_{};
  std::array<pollfd, 4> fds_;
  bool ending_ = false;
};

}  // namespace

Result<RunResult> run_script(const RunRequest& request, rpc::RpcHandler& handler,
                             std::stop_source& stop) {
  HERMES_ASSIGN_OR_RETURN(StagingDir staging, StagingDir::create());
  const std::string script = staging.path() + "/script.py";
  HERMES_TRY(write_private_file(staging.path() + "/hermes_tools.py", request.module_source));
  HERMES_TRY(write_private_file(script, request.code));
  HERMES_ASSIGN_OR_RETURN(std::unique_ptr<rpc::RpcServer> server,
                          rpc::RpcServer::listen(staging.path()));
  UniqueFd wake(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  if (!wake.valid()) return Error::FromErrno(errno, "eventfd");
  std::jthread rpc_thread([&] { server->serve(handler); });
  // Whatever happens next, in-flight tool calls are cancelled and the RPC
  // thread is joined before the staging directory goes.
  struct Shutdown {
    std::stop_source& stop;
    rpc::RpcServer& server;
    std::jthread& thread;
    ~Shutdown() {
      stop.request_stop();
      server.stop();
      if (thread.joinable()) thread.join();
    }
  } shutdown{stop, *server, rpc_thread};
  HERMES_ASSIGN_OR_RETURN(OutputPipe out, make_output_pipe());
  HERMES_ASSIGN_OR_RETURN(OutputPipe err, make_output_pipe());
  // stdin is /dev/null; the script leads a session of its own.
  HERMES_ASSIGN_OR_RETURN(
      ProcessTree tree,
      ProcessTree::launch({.program = request.interpreter,
                           .argv = {request.interpreter, script},
                           .env = python_env(request.env, staging.path(), *server),
                           .cwd = request.cwd.empty() ? staging.path() : request.cwd,
                           .stdout_fd = out.write.get(),
                           .stderr_fd = err.write.get(),
                           .write_fence_fd = request.write_fence_fd,
                           .capture = request.write_capture.get()}));
  out.write.reset();
  err.write.reset();
  std::stop_callback wake_on_stop(stop.get_token(), [fd = wake.get()] {
    uint64_t one = 1;
    [[maybe_unused]] ssize_t n = ::write(fd, &one, sizeof one);
  });
  RunResult result;
  RunLoop(tree, out.read.get(), err.read.get(), wake.get(), request.timeout, request.status)
      .run(result);
  tree.reap();
  return result;
}

}  // namespace hermes::execute_code
