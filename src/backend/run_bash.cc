// SPDX-License-Identifier: MIT
// run_bash: spawn the backend's launcher, feed stdin from a thread, hold the
// first output back until the run is known not to be a transport failure.
#include "backend/run_bash.h"

#include "backend/command_fence.h"
#include "core/strings.h"
#include "proc/child_ledger.h"
#include "proc/spawn.h"
#include "proc/stderr_capture.h"

#include <cerrno>
#include <thread>

namespace hermes::backend {
namespace {

// Output held back before streaming starts: a transport error (docker's
// "No such container", ssh's connection failure) is always shorter.
constexpr size_t kHoldBack = 64 * 1024;
constexpr size_t kStderrCap = 64 * 1024;
// First line of a script whose target outlives its launcher: the target-side
// pid, so a timed-out or cancelled command can be ended there.
constexpr std::string_view kPidTag = "__HERMES_PID_";
constexpr std::chrono::seconds kRemoteKillLimit{5};

// Removes the pid line from `held` once it is complete. It is the script's
// first output, but a login shell's profile may print before it.
std::optional<std::string> take_pid_line(std::string& held) {
  size_t at = held.starts_with(kPidTag) ? 0 : held.find("\n" + std::string(kPidTag));
  if (at == std::string::npos) return std::nullopt;
  size_t begin = at == 0 ? 0 : at + 1;
  size_t nl = held.find('\n', begin);
  if (nl == std::string::npos) return std::nullopt;
  std::string pid = held.substr(begin + kPidTag.size(), nl - begin - kPidTag.size());
  held.erase(begin, nl + 1 - begin);
  return pid;
}

// Ends `pid` and its descendants on the target, children first.
std::string kill_tree_script(const std::string& pid) {
  return "__hermes_kill() { local c; for c in $(cat /proc/$1/task/*/children 2>/dev/null); do "
         "__hermes_kill \"$c\"; done; kill -TERM \"$1\" 2>/dev/null; }\n"
         "__hermes_kill " +
         shell_quote(pid) + "\n";
}

struct Attempt {
  BashOutcome outcome;
  bool streaming = false;  // output is passed on as it comes (past the hold-back)
  std::optional<std::string> remote_pid;
};

// The script as run: with track_pid, first a line with the shell's pid.
// Remote prefixes share the script's first line, so bash's "line N:"
// messages match a local run's. Merging stderr on the target keeps the order
// that ssh's separate stdout/stderr channels would lose.
std::string wrapped_script(const BashRun& run, bool track_pid) {
  std::string prefix;
  if (track_pid) {
    if (!run.separate_stderr) prefix = "exec 2>&1; ";
    prefix += "printf '" + std::string(kPidTag) + "%s\\n' \"$$\"; ";
  }
  return prefix + run.script;
}

Result<Attempt> run_once(Backend& backend, const BashRun& run, std::stop_token stop,
                         const proc::OutputCallback& on_output, bool track_pid);

// Killing the local client leaves the command running on the target: end
// its tree there, by the pid it printed first.
void end_remote_tree(Backend& backend, const std::string& remote_pid) {
  BashRun kill{.script = kill_tree_script(remote_pid),
               .timeout = std::chrono::duration_cast<std::chrono::milliseconds>(kRemoteKillLimit)};
  (void)run_once(
      backend, kill, {}, [](std::string_view) {}, false);
}

Result<Attempt> run_once(Backend& backend, const BashRun& run, std::stop_token stop,
                         const proc::OutputCallback& on_output, bool track_pid) {
  std::string script = wrapped_script(run, track_pid);
  HERMES_ASSIGN_OR_RETURN(int fence_fd, write_fence_fd(backend));
  std::shared_ptr<const proc::WriteCapture> capture = backend.write_capture();
  proc::SpawnOptions options{
      .argv = backend.bash_argv(script, run.login),
      .env = backend.launch_env(),
      .cwd = "/",
      .stdin_mode = run.stdin_data ? proc::StdinMode::kPipe : proc::StdinMode::kNull,
      .new_session = run.new_session,
      .whole_tree = run.whole_tree,
      .write_fence_fd = fence_fd,
      .write_capture = run.whole_tree ? capture.get() : nullptr};
  std::optional<proc::StderrCapture> stderr_capture;
  if (run.separate_stderr) {
    stderr_capture.emplace(kStderrCap);
    if (!stderr_capture->ok()) return Error::FromErrno(errno, "pipe");
    options.stderr_fd = stderr_capture->write_fd();
  }
  auto child = proc::spawn(options);
  if (stderr_capture) stderr_capture->start();
  if (!child) return Error::Unavailable(backend.name() + " backend: " + child.error().message);
  std::jthread feeder;
  if (run.stdin_data) {
    feeder = std::jthread([&child, &run] {
      // A child that exits without reading is not an error here: its exit
      // status tells what happened.
      (void)child->write_stdin(*run.stdin_data, std::chrono::hours(24));
      child->close_stdin();
    });
  }
  Attempt attempt;
  // The pid line, too, is taken out of the held output.
  attempt.streaming = !backend.has_transport() && !track_pid;
  std::string& held = attempt.outcome.output;
  bool awaiting_pid = track_pid;
  auto hold_then_stream = [&](std::string_view bytes) {
    if (attempt.streaming) return on_output(bytes);
    held.append(bytes);
    if (awaiting_pid && (attempt.remote_pid = take_pid_line(held))) awaiting_pid = false;
    if (held.size() <= kHoldBack) return;
    attempt.streaming = true;
    on_output(held);
    held.clear();
  };
  proc::RunOutcome r = proc::run_bounded(
      *child,
      {.timeout = run.timeout, .kill_grace = run.kill_grace, .stop_signal = run.stop_signal}, stop,
      hold_then_stream);
  // The child is gone; an unread stdin pipe now fails fast with EPIPE.
  child->close_stdin();
  if (feeder.joinable()) feeder.join();
  if (r.end != proc::RunEnd::kExited && attempt.remote_pid) {
    end_remote_tree(backend, *attempt.remote_pid);
  }
  attempt.outcome.end = r.end;
  attempt.outcome.exit_code = r.status.code;
  attempt.outcome.forced = r.forced;
  attempt.outcome.escaped = child->escaped();
  // What the killed supervisor held came back to the server: end it now,
  // before the result says so.
  if (attempt.outcome.escaped) attempt.outcome.escapees_left = proc::end_adopted();
  if (stderr_capture) attempt.outcome.stderr_text = stderr_capture->finish();
  return attempt;
}

}  // namespace

Result<BashOutcome> run_bash(Backend& backend, const BashRun& run, std::stop_token stop,
                             const proc::OutputCallback& on_output) {
  HERMES_TRY(backend.start(stop));
  for (int tries = 0;; ++tries) {
    HERMES_ASSIGN_OR_RETURN(
        Attempt attempt, run_once(backend, run, stop, on_output, backend.outlives_its_launcher()));
    BashOutcome& outcome = attempt.outcome;
    if (!attempt.streaming && outcome.end == proc::RunEnd::kExited) {
      if (auto failure = backend.transport_error(outcome)) {
        if (tries == 0 && backend.recover()) continue;
        return Error::Unavailable(*failure);
      }
    }
    if (!attempt.streaming && !outcome.output.empty()) on_output(outcome.output);
    outcome.output.clear();
    return std::move(outcome);
  }
}

Result<BashOutcome> run_bash_captured(Backend& backend, const BashRun& run, std::stop_token stop,
                                      size_t max_output) {
  std::string output;
  bool too_large = false;
  HERMES_ASSIGN_OR_RETURN(BashOutcome outcome,
                          run_bash(backend, run, stop, [&](std::string_view bytes) {
                            if (output.size() + bytes.size() > max_output)
                              too_large = true;
                            else
                              output.append(bytes);
                          }));
  if (too_large)
    return Error::TooLarge("output of a " + backend.name() + " command exceeded the cap");
  outcome.output = std::move(output);
  return outcome;
}

}  // namespace hermes::backend
