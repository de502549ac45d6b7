// SPDX-License-Identifier: MIT
#include "tools/execute_code/stream_kernel.h"

#include "backend/command_fence.h"
#include "backend/local_command.h"
#include "backend/run_bash.h"
#include "core/strings.h"
#include "rpc/rpc_protocol.h"
#include "tools/execute_code/interrupt_schedule.h"
#include "tools/execute_code/kernel_driver.h"
#include "tools/execute_code/remote_run.h"
#include "tools/execute_code/stop_wake.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <thread>

namespace hermes::execute_code {
namespace {

using Clock = std::chrono::steady_clock;
using proc::UniqueFd;

// A frame larger than this is a broken stream: the RPC's own request cap
// (rpc/rpc_server.h) plus room for the header fields.
constexpr size_t kMaxFrame = (64u << 20) + 64;
// An image larger than this is a broken protocol: the kernel is killed.
constexpr size_t kMaxImageBytes = 32u << 20;
// What is kept of the launcher's own stderr (the ssh client's complaints).
constexpr size_t kLauncherErrors = 64 * 1024;
// A frame the driver does not take within this long: it is wedged.
constexpr std::chrono::seconds kSendLimit{10};
// After the launcher is killed, how long its end of the stream may stay open.
constexpr std::chrono::milliseconds kDrainGrace{500};
// How long a failed start may take to say why on its stderr.
constexpr std::chrono::seconds kErrorGrace{2};
// Ending the driver's group on a target that outlives the launcher.
constexpr std::chrono::seconds kRemoteKillLimit{5};

// The driver under `bash -c` on the target.
std::string launch_script(const StreamKernelSpec& spec, const std::string& id) {
  std::string script = "{ " + python_preflight() + "; } >&2\n" + unset_line(spec.unset_names);
  if (!spec.cwd.empty()) script += "cd " + shell_quote(spec.cwd) + " 2>/dev/null || cd\n";
  script += "HERMES_KERNEL_ID=" + id + " ";
  if (!spec.timezone.empty()) script += "TZ=" + shell_quote(spec.timezone) + " ";
  return script + "PYTHONDONTWRITEBYTECODE=1 PYTHONIOENCODING=utf-8 PYTHONUTF8=1 exec python3 -c " +
         shell_quote(kernel_driver_source(KernelLink::kStream)) + " " +
         std::to_string(spec.memory_bytes);
}

// Ends the driver's process group on the target when the pid still carries
// this kernel's id (so a reused pid is never hit).
std::string end_script(const std::string& pid, const std::string& id) {
  return "p=" + shell_quote(pid) +
         "\n"
         "if tr '\\0' '\\n' 2>/dev/null < \"/proc/$p/environ\" | grep -qxF "
         "'HERMES_KERNEL_ID=" +
         id +
         "'; then\n"
         "  kill -KILL -- \"-$p\" \"$p\" 2>/dev/null\n"
         "fi\n"
         "true";
}

// Reads what `fd` has into `frames`; false at EOF or on a hard error.
bool read_stream(int fd, FrameReader& frames) {
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n > 0) {
      frames.append(std::string_view(buf, static_cast<size_t>(n)));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    return n < 0 && errno == EAGAIN;
  }
}

}  // namespace

// The poll loop over one cell: the stream's frames, the stop and the
// deadlines; tool calls are answered on a thread of their own so output and
// the deadline are watched while a tool runs. Not thread-safe.
class StreamKernel::CellLoop {
 public:
  CellLoop(StreamKernel& kernel, int wake_fd, const CellRequest& request, std::stop_source& stop)
      : kernel_(kernel),
        stop_(stop),
        status_(request.status),
        schedule_(request.grace),
        deadline_(Clock::now() + request.timeout),
        fds_{{{kernel.launcher_.output_fd(), POLLIN, 0},
              {wake_fd, POLLIN, 0},
              {kernel.errors_.get(), POLLIN, 0}}} {}

  void run(CellResult& result) {
    take_frames(result);
    while (!done_ && open_ && (!lost_ || Clock::now() < drain_until_)) {
      ::poll(fds_.data(), fds_.size(), poll_timeout_ms());
      if (fds_[kStream].revents) {
        open_ = read_stream(fds_[kStream].fd, kernel_.frames_);
        take_frames(result);
      }
      if (fds_[kErrors].revents && !kernel_.read_errors()) fds_[kErrors].fd = -1;
      if (done_) break;
      if (fds_[kWake].revents) interrupt(RunEnd::kInterrupted, result);
      if (!schedule_.started() && Clock::now() >= deadline_) interrupt(RunEnd::kTimedOut, result);
      if (!lost_ && schedule_.repeat_due(Clock::now())) send_interrupt(result);
      if (!lost_ && schedule_.kill_due(Clock::now())) lose(result);
    }
    if (!done_) on_gone(result);
    // Cancels a tool call still in flight before waiting for it.
    stop_.request_stop();
    if (call_.joinable()) call_.join();
  }

 private:
  enum Slot { kStream, kWake, kErrors };

  int poll_timeout_ms() const {
    Clock::time_point until = lost_                  ? drain_until_
                              : !schedule_.started() ? deadline_
                                                     : schedule_.next_event();
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
    return static_cast<int>(std::max<int64_t>(0, left.count() + 1));
  }

  void take_frames(CellResult& result) {
    while (!done_) {
      std::optional<Frame> frame = kernel_.frames_.next();
      if (!frame) break;
      on_frame(*frame, result);
    }
    if (kernel_.frames_.broken() && !lost_) lose(result);
  }

  void on_frame(Frame& frame, CellResult& result) {
    if (frame.kind == "out") {
      result.run.output.stdout_capture.append(frame.data);
      if (status_) status_->add_output(frame.data);
    } else if (frame.kind == "err") {
      result.run.output.stderr_capture.append(frame.data);
      if (status_) status_->add_output(frame.data);
    } else if (frame.kind == "call") {
      answer(frame.data);
    } else if (frame.kind == "image" && frame.data.size() <= kMaxImageBytes) {
      result.images.push_back(std::move(frame.data));
    } else if (frame.kind == "done") {
      auto end = parse_cell_end(frame.data);
      if (!end) return lose(result);
      record_cell_end(*end, schedule_.started(), result);
      done_ = true;
      if (result.memory_exceeded) lose(result);
    } else if (frame.kind == "gone") {
      gone_code_ = parse_int(frame.data);
    } else if (frame.kind != "ready") {
      lose(result);
    }
  }

  // `<cell> <seq> <request>`: answered with `<seq> <response>` by the cell's
  // bridge, or refused when an earlier cell's thread made it.
  void answer(const std::string& data) {
    std::vector<std::string> head = split(data.substr(0, std::min<size_t>(data.size(), 48)), ' ');
    if (head.size() < 3) return;
    auto cell = parse_int(head[0]);
    std::string seq = head[1];
    std::string request = data.substr(head[0].size() + seq.size() + 2);
    rpc::RpcHandler& handler = cell && *cell == kernel_.cells_
                                   ? static_cast<rpc::RpcHandler&>(kernel_.bridge_)
                                   : kernel_.idle_;
    if (call_.joinable()) call_.join();
    call_ = std::jthread([this, &handler, seq = std::move(seq), request = std::move(request)] {
      kernel_.send("answer", seq + " " + rpc::answer_private(request, handler));
    });
  }

  // The stream ended without `done`: the driver is gone.
  void on_gone(CellResult& result) {
    kernel_.gone_ = true;
    result.kernel_lost = true;
    if (lost_) return;  // our kill: its exit code says nothing
    if (gone_code_) {
      result.run.exit_code = static_cast<int>(*gone_code_);
    } else if (auto status = kernel_.launcher_.try_reap()) {
      result.run.exit_code = status->code;
    }
  }

  void interrupt(RunEnd end, CellResult& result) {
    fds_[kWake].fd = -1;
    if (!schedule_.start(Clock::now())) return;
    result.run.end = end;
    send_interrupt(result);
  }

  // The driver sends SIGINT to the kernel's process group: the cell gets
  // KeyboardInterrupt.
  void send_interrupt(CellResult& result) {
    if (!kernel_.send("interrupt", "")) lose(result);
  }

  // The cell did not stop, or the stream broke: the kernel goes, and its
  // state with it.
  void lose(CellResult& result) {
    result.kernel_lost = true;
    lost_ = true;
    kernel_.gone_ = true;
    kernel_.kill();
    drain_until_ = Clock::now() + kDrainGrace;
  }

  StreamKernel& kernel_;
  std::stop_source& stop_;
  registry::CallStatus* status_;
  InterruptSchedule schedule_;
  Clock::time_point deadline_;
  Clock::time_point drain_until_{};
  std::array<pollfd, 3> fds_;
  std::jthread call_;
  std::optional<int64_t> gone_code_;
  bool open_ = true;
  bool lost_ = false;
  bool done_ = false;
};

Result<std::unique_ptr<Kernel>> StreamKernel::start(std::shared_ptr<backend::Backend> backend,
                                                    const StreamKernelSpec& spec,
                                                    std::stop_token stop) {
  std::string id = random_hex(8);
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) return Error::FromErrno(errno, "pipe");
  UniqueFd errors(pipe_fds[0]), errors_write(pipe_fds[1]);
  ::fcntl(errors.get(), F_SETFL, O_NONBLOCK);
  HERMES_ASSIGN_OR_RETURN(int fence_fd, backend::write_fence_fd(*backend));
  bool whole_tree = !backend->outlives_its_launcher();
  std::shared_ptr<const proc::WriteCapture> capture = backend->write_capture();
  // On this host the launcher's tree is the kernel's (bubblewrap's, a local
  // bash's); elsewhere only the client runs here, in a group of its own.
  auto launcher = proc::spawn({.argv = backend->bash_argv(launch_script(spec, id), false),
                               .env = backend->launch_env(),
                               .cwd = "/",
                               .stdin_mode = proc::StdinMode::kPipe,
                               .stderr_fd = errors_write.get(),
                               .whole_tree = whole_tree,
                               .write_fence_fd = fence_fd,
                               .write_capture = whole_tree ? capture.get() : nullptr});
  errors_write.reset();
  if (!launcher)
    return Error::Unavailable(backend->name() + " backend: " + launcher.error().message);
  std::unique_ptr<StreamKernel> kernel(
      new StreamKernel(std::move(backend), std::move(*launcher), std::move(errors), std::move(id)));
  if (!kernel->send("module", spec.module_source)) {
    return kernel->start_failure("the driver did not read its module");
  }
  HERMES_ASSIGN_OR_RETURN(Frame ready, kernel->await_ready(spec.start_timeout, stop));
  kernel->remote_pid_ = std::move(ready.data);
  return std::unique_ptr<Kernel>(std::move(kernel));
}

StreamKernel::StreamKernel(std::shared_ptr<backend::Backend> backend, proc::ChildProcess launcher,
                           UniqueFd errors, std::string id)
    : backend_(std::move(backend)),
      launcher_(std::move(launcher)),
      errors_(std::move(errors)),
      id_(std::move(id)),
      frames_(kMaxFrame) {}

StreamKernel::~StreamKernel() {
  kill();
  launcher_.close_stdin();
  launcher_.wait();
  end_on_target();
}

bool StreamKernel::read_errors() {
  char buf[4096];
  for (;;) {
    ssize_t n = ::read(errors_.get(), buf, sizeof buf);
    if (n > 0) {
      size_t room = kLauncherErrors - std::min(kLauncherErrors, error_text_.size());
      error_text_.append(buf, std::min(room, static_cast<size_t>(n)));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    return n < 0 && errno == EAGAIN;
  }
}

Result<Frame> StreamKernel::await_ready(std::chrono::milliseconds limit, std::stop_token stop) {
  constexpr std::chrono::milliseconds kSlice{50};  // how often `stop` is looked at
  auto until = Clock::now() + limit;
  bool open = true;
  bool errors_open = true;
  for (;;) {
    if (std::optional<Frame> frame = frames_.next()) {
      if (frame->kind == "ready") return std::move(*frame);
      return start_failure("the driver sent `" + frame->kind + "` first");
    }
    if (frames_.broken()) return start_failure("the driver's stream is not framed");
    if (!open) return start_failure("");
    if (stop.stop_requested()) {
      kill();
      return Error::Cancelled("Script interrupted before it started");
    }
    if (Clock::now() >= until) return start_failure("no answer within the start-up limit");
    std::array<pollfd, 2> fds{
        {{launcher_.output_fd(), POLLIN, 0}, {errors_open ? errors_.get() : -1, POLLIN, 0}}};
    ::poll(fds.data(), fds.size(), static_cast<int>(kSlice.count()));
    if (fds[0].revents) open = read_stream(fds[0].fd, frames_);
    if (fds[1].revents) errors_open = read_errors();
  }
}

// Why the driver did not start, from what the launcher printed: no python3,
// a transport failure, or its last line.
Error StreamKernel::start_failure(const std::string& why) {
  gone_ = true;
  kill();
  launcher_.close_stdin();
  backend::BashOutcome outcome{.exit_code = launcher_.wait().code};
  auto until = Clock::now() + kErrorGrace;
  for (pollfd errors{errors_.get(), POLLIN, 0}; read_errors() && Clock::now() < until;) {
    ::poll(&errors, 1, 50);
  }
  outcome.stderr_text = error_text_;
  if (reports_no_python(outcome.stderr_text)) return python_unavailable(*backend_);
  if (auto transport = backend_->transport_error(outcome)) return Error::Unavailable(*transport);
  std::string said = backend::last_line(outcome.stderr_text);
  if (said.empty()) said = why.empty() ? "exit code " + std::to_string(outcome.exit_code) : why;
  return Error::Io("Could not start the Python kernel in the " + backend_->name() +
                   " terminal environment: " + said);
}

bool StreamKernel::send(std::string_view kind, std::string_view data) {
  std::lock_guard lock(send_mu_);
  return launcher_.write_stdin(encode_frame(kind, data), kSendLimit).has_value();
}

void StreamKernel::end_on_target() {
  if (!backend_->outlives_its_launcher() || remote_pid_.empty()) return;
  (void)backend::run_bash_captured(
      *backend_,
      backend::BashRun{
          .script = end_script(remote_pid_, id_),
          .timeout = std::chrono::duration_cast<std::chrono::milliseconds>(kRemoteKillLimit)},
      std::stop_token{});
}

bool StreamKernel::alive() const {
  if (gone_) return false;
  pollfd status{launcher_.pid_fd(), POLLIN, 0};
  return ::poll(&status, 1, 0) == 0;
}

void StreamKernel::kill() const { launcher_.signal_group(SIGKILL); }

CellResult StreamKernel::run_cell(const CellRequest& request, rpc::RpcHandler& handler,
                                  std::stop_source& stop) {
  CellResult result;
  {
    StopWake wake(stop.get_token());
    bridge_.attach(&handler);
    ++cells_;
    if (!send("cell", request.code)) kill();
    CellLoop(*this, wake.fd(), request, stop).run(result);
  }
  bridge_.attach(nullptr);
  return result;
}

}  // namespace hermes::execute_code
