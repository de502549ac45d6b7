// SPDX-License-Identifier: MIT
// The process runner: the agent through proc::spawn with stderr on its own
// pipe (the session id and errors live there), driven by proc::run_bounded.
#include "tools/task/agent_runner.h"

#include "proc/output_capture.h"
#include "proc/run.h"
#include "proc/spawn.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <thread>
#include <variant>

extern char** environ;

namespace hermes::task {
namespace {

using proc::UniqueFd;
constexpr size_t kStderrWindow = 64 * 1024;
constexpr int kMaxDrainReads = 64;

struct Pipe {
  UniqueFd read_end;
  UniqueFd write_end;
};

std::optional<Pipe> make_pipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return std::nullopt;
  return Pipe{UniqueFd(fds[0]), UniqueFd(fds[1])};
}

std::vector<std::string> child_env(const std::vector<std::string>& extra) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) env.emplace_back(*e);
  env.insert(env.end(), extra.begin(), extra.end());
  return env;
}

struct Spawned {
  proc::ChildProcess child;
  UniqueFd stderr_fd;
};

// errno-style failure code on error (ENOENT for a missing program or cwd).
int errno_of(const Error& error) {
  switch (error.code) {
    case ErrorCode::kNotFound:
      return ENOENT;
    case ErrorCode::kPermissionDenied:
      return EACCES;
    case ErrorCode::kInvalidArgument:
      return EINVAL;
    default:
      return EIO;
  }
}

// The agent through proc::spawn, with stderr on a pipe of its own: the
// session id and the errors are read from there, the answer from stdout.
std::variant<Spawned, int> spawn_agent(const AgentRun& request) {
  auto err = make_pipe();
  if (!err) return errno;
  auto child = proc::spawn({.argv = request.argv,
                            .env = child_env(request.extra_env),
                            .cwd = request.cwd,
                            .stderr_fd = err->write_end.get()});
  if (!child) return errno_of(child.error());
  err->write_end.reset();  // the child holds its copy
  ::fcntl(err->read_end.get(), F_SETFL, O_NONBLOCK);
  return Spawned{std::move(*child), std::move(err->read_end)};
}

// Drains stderr on its own thread until EOF or until told to stop (a
// grandchild that escaped the group may keep the pipe open forever).
class StderrReader {
 public:
  explicit StderrReader(int fd)
      : capture_(kStderrWindow, kStderrWindow), thread_([this, fd] { loop(fd); }) {}
  ~StderrReader() {
    done_ = true;
    if (thread_.joinable()) thread_.join();
  }
  StderrReader(const StderrReader&) = delete;
  StderrReader& operator=(const StderrReader&) = delete;
  // Reads what is left without blocking, then stops.
  std::string finish() {
    done_ = true;
    thread_.join();
    return text();
  }

 private:
  void loop(int fd) {
    char buf[16384];
    int drain_reads = 0;
    for (;;) {
      bool draining = done_;
      // A writer that escaped the process group must not keep us here.
      if (draining && ++drain_reads > kMaxDrainReads) return;
      pollfd p{fd, POLLIN, 0};
      int ready = ::poll(&p, 1, draining ? 0 : 50);
      if (ready == 0 && draining) return;
      if (ready <= 0) continue;
      ssize_t n = ::read(fd, buf, sizeof buf);
      if (n > 0) capture_.append(std::string_view(buf, static_cast<size_t>(n)));
      if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) return;
    }
  }
  std::string text() const {
    if (capture_.complete()) return capture_.prefix();
    return capture_.prefix() + "\n[... stderr truncated ...]\n" + std::string(capture_.tail());
  }

  proc::OutputCapture capture_;
  std::atomic<bool> done_{false};
  std::thread thread_;
};

class ProcessRunner final : public AgentRunner {
 public:
  AgentResult run(const AgentRun& request, std::stop_token stop) override {
    if (request.argv.empty()) return AgentResult{.spawn_failed = true, .spawn_errno = EINVAL};
    auto started = std::chrono::steady_clock::now();
    AgentResult result = run_spawned(request, stop);
    result.duration_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::steady_clock::now() - started)
                             .count();
    return result;
  }

 private:
  static AgentResult run_spawned(const AgentRun& request, std::stop_token stop) {
    AgentResult result;
    auto spawned = spawn_agent(request);
    if (auto* failure = std::get_if<int>(&spawned)) {
      result.spawn_failed = true;
      result.spawn_errno = *failure;
      return result;
    }
    Spawned& s = std::get<Spawned>(spawned);
    StderrReader stderr_reader(s.stderr_fd.get());
    proc::RunLimits limits{.timeout = request.timeout, .kill_grace = request.kill_grace};
    proc::RunOutcome outcome =
        proc::run_bounded(s.child, limits, stop, [&](std::string_view bytes) {
          size_t room = request.max_stdout_bytes - result.stdout_text.size();
          if (bytes.size() > room) result.stdout_truncated = true;
          result.stdout_text.append(bytes.substr(0, room));
        });
    // The agent is gone; whatever it left running in its group goes too.
    s.child.signal_group(SIGKILL);
    result.stderr_text = stderr_reader.finish();
    result.timed_out = outcome.end == proc::RunEnd::kTimedOut;
    result.cancelled = outcome.end == proc::RunEnd::kCancelled;
    if (outcome.status.signaled()) {
      result.term_signal = -outcome.status.code;
    } else {
      result.exit_code = outcome.status.code;
    }
    return result;
  }
};

}  // namespace

std::unique_ptr<AgentRunner> make_process_runner() { return std::make_unique<ProcessRunner>(); }

}  // namespace hermes::task
