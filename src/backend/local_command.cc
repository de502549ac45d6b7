// SPDX-License-Identifier: MIT
#include "backend/local_command.h"

#include "backend/run_bash.h"
#include "core/strings.h"
#include "proc/spawn.h"

namespace hermes::backend {
namespace {

// Runs an argv as-is: the launcher run_bash needs, without a shell hop.
class DirectLauncher final : public Backend {
 public:
  explicit DirectLauncher(std::vector<std::string> argv) : argv_(std::move(argv)) {}
  std::string name() const override { return argv_.empty() ? "local" : argv_[0]; }
  bool native_files() const override { return true; }
  Status start(std::stop_token) override { return {}; }
  std::vector<std::string> bash_argv(const std::string&, bool) const override { return argv_; }
  std::string home() const override { return ""; }
  std::string default_cwd() const override { return "/"; }

 private:
  std::vector<std::string> argv_;
};

}  // namespace

Result<LocalCommandResult> run_local_command(const std::vector<std::string>& argv,
                                             std::chrono::milliseconds timeout,
                                             std::stop_token stop, bool separate_stderr,
                                             std::optional<std::string> input) {
  // Told apart from other launch failures, which run_bash reports as a
  // backend being unavailable.
  if (argv.empty() || proc::find_program(argv[0]).empty()) {
    return Error::NotFound((argv.empty() ? std::string("(empty)") : argv[0]) + " not found");
  }
  DirectLauncher launcher(argv);
  HERMES_ASSIGN_OR_RETURN(
      BashOutcome outcome,
      run_bash_captured(
          launcher,
          {.stdin_data = std::move(input), .timeout = timeout, .separate_stderr = separate_stderr},
          stop, size_t{16} << 20));
  LocalCommandResult result;
  result.exit_code = outcome.end == proc::RunEnd::kExited ? outcome.exit_code : -1;
  result.output = std::move(outcome.output);
  result.errors = std::move(outcome.stderr_text);
  return result;
}

std::string last_line(std::string_view text) {
  std::string trimmed(trim(text));
  size_t nl = trimmed.find_last_of('\n');
  return nl == std::string::npos ? trimmed : std::string(trim(trimmed.substr(nl + 1)));
}

}  // namespace hermes::backend
