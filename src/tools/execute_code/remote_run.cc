// SPDX-License-Identifier: MIT
#include "tools/execute_code/remote_run.h"

#include "backend/local_command.h"
#include "backend/run_bash.h"
#include "core/base64.h"
#include "core/log.h"
#include "core/strings.h"
#include "rpc/rpc_protocol.h"
#include "tools/execute_code/file_rpc_host.h"

#include <algorithm>
#include <cctype>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

namespace hermes::execute_code {
namespace {

// Staging is a few file operations on the target; a stalled link must not
// hold the caller much past the script's own timeout, so the bound is the
// smaller of this and that timeout.
constexpr std::chrono::milliseconds kStagingTimeout{60000};
// Cleanup runs after the script's time is up: short, whatever the link does.
constexpr std::chrono::seconds kCleanupTimeout{10};
constexpr std::chrono::milliseconds kPollInterval{100};
// Printed by the staging command when the preflight fails.
constexpr std::string_view kNoPythonMarker = "HERMES_NO_PYTHON3";
// What the upstream backends report for their own timeout and interrupt.
constexpr int kTimeoutExit = 124;
constexpr int kInterruptExit = 130;

// The target directory, removed with `rm -rf` when this goes unless the run
// already removed it.
class RemoteDir {
 public:
  RemoteDir(backend::Backend& backend, std::string path)
      : backend_(backend), path_(std::move(path)) {}
  RemoteDir(const RemoteDir&) = delete;
  RemoteDir& operator=(const RemoteDir&) = delete;
  ~RemoteDir() {
    if (!armed_) return;
    // A fresh stop token: the run's own is usually requested by now.
    auto removed = backend::run_bash_captured(
        backend_, backend::BashRun{.script = cleanup_script(path_), .timeout = kCleanupTimeout},
        std::stop_token{});
    if (!removed || removed->exit_code != 0) log::warn("execute_code: could not remove " + path_);
  }
  const std::string& path() const { return path_; }
  void removed_by_run() { armed_ = false; }

 private:
  backend::Backend& backend_;
  std::string path_;
  bool armed_ = true;
};

// Checks for python3, then writes hermes_tools.py and script.py into a new
// 0700 directory with an rpc/ subdirectory. Both arrive on stdin as one
// base64 line each; awk splits the lines so a large script never goes
// through a shell variable.
std::string staging_script(const std::string& dir) {
  std::string q = shell_quote(dir);
  return python_preflight() +
         "\n"
         "umask 077 && mkdir " +
         q + " " + q + "/rpc && cd " + q +
         " && "
         "awk 'NR==1{print > \"hermes_tools.b64\"} NR==2{print > \"script.b64\"}' && "
         "base64 -d hermes_tools.b64 > hermes_tools.py && base64 -d script.b64 > script.py && "
         "rm -f hermes_tools.b64 script.b64";
}

Status stage(backend::Backend& backend, const std::string& dir, const RemoteRunRequest& request,
             std::stop_token stop) {
  backend::BashRun run{.script = staging_script(dir),
                       .stdin_data = base64_encode(request.module_source) + "\n" +
                                     base64_encode(request.code) + "\n",
                       .timeout = std::min(kStagingTimeout, request.timeout)};
  HERMES_ASSIGN_OR_RETURN(backend::BashOutcome staged,
                          backend::run_bash_captured(backend, run, stop));
  if (staged.end == proc::RunEnd::kCancelled) return Error::Cancelled("interrupted");
  if (staged.end == proc::RunEnd::kExited && staged.exit_code == 0) return {};
  if (reports_no_python(staged.output)) return python_unavailable(backend);
  std::string why =
      staged.end == proc::RunEnd::kTimedOut ? "timed out" : backend::last_line(staged.output);
  if (why.empty()) why = "exit code " + std::to_string(staged.exit_code);
  return Error::Io("Could not stage the script in the " + backend.name() +
                   " terminal environment: " + why);
}

bool is_shell_identifier(const std::string& name) {
  return !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
         std::all_of(name.begin(), name.end(),
                     [](unsigned char c) { return std::isalnum(c) || c == '_'; });
}

// The script runs in its directory (so `import hermes_tools` resolves) and
// removes it on the way out; the host removes it when the run was cut short.
// `pids` holds the run's shell and python, for cleanup_script.
std::string run_command(const std::string& dir, const RemoteRunRequest& request) {
  std::string q = shell_quote(dir);
  std::string vars = "HERMES_RPC_DIR=" + shell_quote(dir + "/rpc") + " ";
  if (!request.timezone.empty()) vars += "TZ=" + shell_quote(request.timezone) + " ";
  return unset_line(request.unset_names) + "cd " + q + " && " + vars +
         "PYTHONDONTWRITEBYTECODE=1 PYTHONIOENCODING=utf-8 "
         "sh -c 'echo \"$PPID $$\" > pids && exec python3 script.py'\n"
         "rc=$?\ncd / && rm -rf " +
         q + "\nexit $rc";
}

// Answers requests every kPollInterval until `stop` is requested.
void serve(FileRpcHost& host, std::stop_token stop) {
  std::mutex mu;
  std::condition_variable_any wake;
  bool logged = false;
  for (;;) {
    {
      std::unique_lock lock(mu);
      wake.wait_for(lock, stop, kPollInterval, [] { return false; });
    }
    if (stop.stop_requested()) return;
    Status polled = host.poll_once(stop);
    if (!polled && !logged && !stop.stop_requested()) {
      log::debug("execute_code: file RPC poll failed: " + polled.error().message);
      logged = true;
    }
  }
}

RunEnd run_end(const backend::BashOutcome& outcome) {
  if (outcome.end == proc::RunEnd::kTimedOut) return RunEnd::kTimedOut;
  if (outcome.end == proc::RunEnd::kCancelled) return RunEnd::kInterrupted;
  if (outcome.exit_code == kTimeoutExit) return RunEnd::kTimedOut;
  if (outcome.exit_code == kInterruptExit) return RunEnd::kInterrupted;
  return RunEnd::kExited;
}

}  // namespace

std::string python_preflight() {
  return "command -v python3 >/dev/null 2>&1 || { echo " + std::string(kNoPythonMarker) +
         "; exit 1; }";
}

bool reports_no_python(std::string_view output) {
  return output.find(kNoPythonMarker) != std::string_view::npos;
}

Error python_unavailable(const backend::Backend& backend) {
  return Error::Unavailable("Python 3 is not available in the " + backend.name() +
                            " terminal environment. Install Python to use execute_code "
                            "with remote backends.");
}

std::string unset_line(const std::vector<std::string>& names) {
  std::string unset;
  for (const std::string& name : names) {
    if (is_shell_identifier(name)) unset += " " + name;
  }
  return unset.empty() ? "" : "unset" + unset + " 2>/dev/null\n";
}

std::string cleanup_script(const std::string& dir) {
  return "d=" + shell_quote(dir) + "\n" + R"SH(if read -r s p 2>/dev/null < "$d/pids" &&
   tr '\0' '\n' 2>/dev/null < "/proc/$p/environ" | grep -qxF "HERMES_RPC_DIR=$d/rpc"; then
  read -r _ _ _ _ g _ < "/proc/$p/stat"
  if [ "$g" = "$s" ]; then kill -KILL -- "-$g"; else kill -KILL "$p"; fi 2>/dev/null
fi
rm -rf "$d")SH";
}

Result<RunResult> run_remote_script(backend::Backend& backend, const RemoteRunRequest& request,
                                    rpc::RpcHandler& handler, std::stop_source& stop) {
  RemoteDir dir(backend, backend.temp_dir() + "/hermes_exec_" + rpc::random_hex(6));
  RunResult result;
  if (Status staged = stage(backend, dir.path(), request, stop.get_token()); !staged) {
    if (staged.error().code != ErrorCode::kCancelled) return staged.error();
    result.end = RunEnd::kInterrupted;
    return result;
  }
  std::optional<Result<backend::BashOutcome>> outcome;
  std::jthread runner([&] {
    outcome = backend::run_bash(backend,
                                backend::BashRun{.script = run_command(dir.path(), request),
                                                 .timeout = request.timeout,
                                                 .separate_stderr = true},
                                stop.get_token(), [&](std::string_view bytes) {
                                  result.output.stdout_capture.append(bytes);
                                });
    stop.request_stop();  // ends serve() and cancels a tool call in flight
  });
  FileRpcHost host(backend, dir.path() + "/rpc", handler);
  serve(host, stop.get_token());
  runner.join();
  if (!*outcome) return outcome->error();
  const backend::BashOutcome& ran = **outcome;
  result.output.stderr_capture.append(ran.stderr_text);
  if (ran.end == proc::RunEnd::kExited && ran.exit_code >= 0) dir.removed_by_run();
  result.end = run_end(ran);
  result.exit_code = ran.exit_code;
  return result;
}

}  // namespace hermes::execute_code
