// SPDX-License-Identifier: MIT
// hermes_task: checks in the reference order, then one agent run.
#include "tools/task/task_service.h"

#include "core/log.h"
#include "core/paths.h"
#include "core/strings.h"
#include "tools/task/auth_store.h"
#include "tools/task/classify.h"
#include "tools/task/iso_time.h"
#include "tools/task/provider_select.h"
#include "tools/task/session_export.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

namespace hermes::task {

// What the `[hermes_task] …` stderr line reports once credentials are read.
struct TaskService::Attempt {
  std::string provider = "-";
  std::string model = "-";
  int64_t prompt_len = 0;
  int64_t timeout_seconds = 0;
  bool log = false;

  void report(const std::string& status, int64_t duration_ms) const {
    if (!log) return;
    log::info("[hermes_task] provider=" + provider + " model=" + model + " prompt_len=" +
              std::to_string(prompt_len) + " timeout=" + std::to_string(timeout_seconds) + "s -> " +
              status + " duration_ms=" + std::to_string(duration_ms));
  }
};

namespace {

TaskError plain_error(std::string code, std::string detail) {
  return task_error(std::move(code), std::move(detail));
}

bool is_directory(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string absolute_of(const std::string& given) {
  std::string path = PathResolver::expand_user(given);
  if (!starts_with(path, "/")) path = PathResolver::workspace("") + "/" + path;
  return PathResolver::real_path(PathResolver::normalize(path));
}

// The allowlist is compared on real paths: `..` and symlinks cannot smuggle
// a directory in, and an allowed project root covers its subdirectories.
std::variant<std::string, TaskError> check_cwd(const std::string& cwd, const TaskConfig& config) {
  if (cwd.empty()) return std::string();
  std::string real = absolute_of(cwd);
  if (!is_directory(real)) {
    return plain_error("cwd_not_allowed", "cwd \"" + cwd + "\" is not an existing directory");
  }
  for (const std::string& allowed : config.cwd_allowlist) {
    if (!allowed.empty() && is_within(real, absolute_of(allowed))) return real;
  }
  return plain_error("cwd_not_allowed", "cwd \"" + cwd + "\" not in allowlist");
}

std::string capped(std::string_view text, int64_t max_bytes, bool& truncated) {
  truncated = text.size() > static_cast<size_t>(max_bytes);
  return std::string(utf8_prefix(text, static_cast<size_t>(max_bytes)));
}

Digest digest_of(const ExportSummary& summary) {
  Digest d;
  d.tool_call_count =
      summary.tool_call_count.value_or(static_cast<int64_t>(summary.tool_calls.size()));
  d.api_call_count = summary.api_call_count;
  d.message_count = summary.message_count;
  d.tools_used = summary.tools_used;
  return d;
}

}  // namespace

TaskError task_error(std::string code, std::string detail) {
  static const std::map<std::string, ErrorCode, std::less<>> kCodes = {
      {"invalid_args", ErrorCode::kInvalidArgument},     {"prompt_too_long", ErrorCode::kTooLarge},
      {"cwd_not_allowed", ErrorCode::kPermissionDenied}, {"not_found", ErrorCode::kNotFound},
      {"provider_not_found", ErrorCode::kNotFound},      {"busy", ErrorCode::kUnavailable},
      {"no_credential", ErrorCode::kUnavailable},        {"rate_limited", ErrorCode::kUnavailable},
      {"spawn_failed", ErrorCode::kUnavailable},         {"timeout", ErrorCode::kTimeout},
  };
  auto it = kCodes.find(code);
  ErrorCode error_code = it == kCodes.end() ? ErrorCode::kInternal : it->second;
  return TaskError{.code = std::move(code), .failure = Error{error_code, std::move(detail)}};
}

TaskService::TaskService(TaskDeps deps) : deps_(std::move(deps)), rng_(std::random_device{}()) {}

TaskOutcome TaskService::run_task(const TaskArgs& args, const TaskConfig& config,
                                  std::stop_token stop) {
  std::string prompt = trim(args.prompt);
  if (prompt.empty()) return plain_error("invalid_args", "prompt is required");
  // Code points, not UTF-16 units: a CJK or emoji prompt counts as what the
  // user sees, and the count does not depend on the host language.
  auto prompt_len = static_cast<int64_t>(utf8_length(prompt));
  if (prompt_len > config.max_prompt_length) {
    TaskError e = plain_error(
        "prompt_too_long",
        "prompt is " + std::to_string(prompt_len) + " chars, max is " +
            std::to_string(config.max_prompt_length) +
            " chars (provider-side limit). Shorten the prompt or split it into smaller tasks.");
    e.prompt_len = prompt_len;
    e.max_prompt_len = config.max_prompt_length;
    return e;
  }
  if (busy_.exchange(true)) return plain_error("busy", "another hermes_task is already running");
  struct Release {
    std::atomic<bool>& flag;
    ~Release() { flag = false; }
  } release{busy_};
  Attempt attempt{.prompt_len = prompt_len, .timeout_seconds = args.timeout_seconds};
  TaskArgs trimmed = args;
  trimmed.prompt = prompt;
  return dispatch(trimmed, config, stop, attempt);
}

TaskOutcome TaskService::dispatch(const TaskArgs& args, const TaskConfig& config,
                                  std::stop_token stop, Attempt& attempt) {
  const int64_t started = deps_.now_ms();
  attempt.log = true;
  auto resolved = resolve(args, config, attempt);
  if (auto* error = std::get_if<TaskError>(&resolved)) {
    attempt.report(error->code, deps_.now_ms() - started);
    return *error;
  }
  const Resolved& target = std::get<Resolved>(resolved);
  AgentRun request = build_run(args, target, config, stop);
  AgentResult run = deps_.runner->run(request, stop);
  if (classify_run(run) != RunClass::kSuccess) {
    TaskError error = run_failure(run, target, args, config);
    attempt.report(error.code, run.duration_ms);
    return error;
  }
  TaskOutcome outcome = finish_success(args, target, run, config, stop);
  attempt.report("ok", run.duration_ms);
  return outcome;
}

std::variant<TaskService::Resolved, TaskError> TaskService::resolve(const TaskArgs& args,
                                                                    const TaskConfig& config,
                                                                    Attempt& attempt) {
  auto auth = read_auth(config.auth_path);
  if (!auth || (!auth->has_pool && !auth->has_providers)) {
    std::string why =
        auth ? config.auth_path + ": no credential_pool or providers" : auth.error().message;
    return plain_error("no_credential",
                       "auth.json unreadable or missing credentials (" + why + ")");
  }
  Resolved target;
  std::string provider = trim(args.provider);
  if (!provider.empty() && provider != "auto") {
    attempt.provider = provider;
    if (!provider_known(*auth, provider)) {
      return plain_error("provider_not_found",
                         "provider \"" + provider + "\" not found in auth.json");
    }
    target.provider = provider;
    target.model = trim(args.model);
    if (target.model.empty()) target.model = default_model_for(provider, config.capability_map);
    if (target.model.empty()) {
      return plain_error("provider_not_found",
                         "no default model mapped for provider \"" + provider + "\"");
    }
  } else {
    attempt.provider = "auto";
    auto picked =
        pick_provider(*auth, PickInput{args.prompt, config.capability_map, config.tiebreak_order,
                                       deps_.now_ms(), config.exhausted_forgive_ttl_ms});
    if (!picked) return plain_error("no_credential", "all providers exhausted");
    target.provider = picked->provider;
    target.model = picked->model;
  }
  attempt.provider = target.provider;
  attempt.model = target.model;
  auto cwd = check_cwd(args.cwd, config);
  if (auto* error = std::get_if<TaskError>(&cwd)) return *error;
  target.cwd = std::get<std::string>(cwd);
  return target;
}

AgentRun TaskService::build_run(const TaskArgs& args, const Resolved& target,
                                const TaskConfig& config, std::stop_token stop) {
  AgentRun run;
  // argparse would read a prompt starting with `-` as an option.
  if (starts_with(args.prompt, "-")) {
    run.argv = {config.hermes_bin, "chat", "--query=" + args.prompt};
  } else {
    run.argv = {config.hermes_bin, "chat", "-q", args.prompt};
  }
  run.argv.insert(run.argv.end(), {"--provider", target.provider, "-m", target.model});
  if (!args.toolsets.empty()) run.argv.insert(run.argv.end(), {"-t", args.toolsets});
  run.argv.insert(run.argv.end(), {"--max-turns", std::to_string(args.max_turns), "-Q",
                                   "--accept-hooks", "--ignore-user-config"});
  run.cwd = target.cwd.empty() ? config.spawn_cwd : target.cwd;
  if (!target.cwd.empty()) {
    // Older Hermes builds lack `--in`; the child's cwd and TERMINAL_CWD do
    // the same job there.
    if (supports_in_flag(config, stop)) run.argv.insert(run.argv.end(), {"--in", target.cwd});
    run.extra_env.push_back("TERMINAL_CWD=" + target.cwd);
  }
  run.argv.push_back("--pass-session-id");
  if (config.yolo) run.extra_env.push_back("HERMES_YOLO_MODE=1");
  run.timeout = std::chrono::seconds(args.timeout_seconds);
  run.kill_grace = std::chrono::milliseconds(config.kill_grace_ms);
  run.max_stdout_bytes = static_cast<size_t>(config.max_capture_bytes);
  return run;
}

TaskError TaskService::run_failure(const AgentResult& run, const Resolved& target,
                                   const TaskArgs& args, const TaskConfig& config) {
  RunClass run_class = classify_run(run);
  const auto detail_cap = static_cast<size_t>(config.max_error_detail_bytes);
  TaskError error =
      plain_error(error_code_of(run_class), error_detail_of(run.stderr_text, detail_cap));
  error.run = RunInfo{run.exit_code, run.duration_ms};
  if (run_class == RunClass::kSpawnFailed) {
    error.failure.message = run.spawn_errno == ENOENT
                                ? "hermes binary \"" + config.hermes_bin + "\" not found (ENOENT)"
                                : "could not start hermes binary \"" + config.hermes_bin +
                                      "\": " + std::strerror(run.spawn_errno);
    error.run->exit_code = std::nullopt;
  } else if (run_class == RunClass::kTimeout) {
    error.failure.message =
        "hermes did not finish within " + std::to_string(args.timeout_seconds) + "s";
    error.run->exit_code = 124;
  } else if (run.cancelled) {
    error.failure = Error::Cancelled("hermes_task was cancelled by the client");
  } else if (run.term_signal && error.failure.message.empty()) {
    error.failure.message = "hermes was killed by signal " + std::to_string(*run.term_signal);
  }
  if (run_class == RunClass::kRateLimited) {
    ExhaustionMark mark{std::string(utf8_prefix(last_lines(run.stderr_text, 3), detail_cap)),
                        deps_.now_ms(), config.reset_window_ms, config.lock_timeout_ms};
    auto marked = mark_exhausted(config.auth_path, target.provider, mark);
    if (!marked) log::warn("[hermes_task] auth.json write-back failed: " + marked.error().message);
  }
  return error;
}

TaskOutcome TaskService::finish_success(const TaskArgs& args, const Resolved& target,
                                        const AgentResult& run, const TaskConfig& config,
                                        std::stop_token stop) {
  TaskSuccess ok;
  ok.provider = target.provider;
  ok.model = target.model;
  ok.task_id = new_task_id();
  ok.mode = args.full_output || config.default_output_mode == OutputMode::kFull
                ? OutputMode::kFull
                : OutputMode::kDigest;
  int64_t cap =
      ok.mode == OutputMode::kFull ? config.max_result_bytes : config.max_digest_result_bytes;
  ok.result = capped(run.stdout_text, cap, ok.truncated);
  ok.truncated = ok.truncated || run.stdout_truncated;
  ok.exit_code = run.exit_code;
  ok.duration_ms = run.duration_ms;
  ok.session_id = parse_session_id(run.stderr_text);
  Json tool_calls;
  if (ok.session_id) {
    auto summary = export_session(*deps_.runner, config, *ok.session_id, stop);
    if (summary) {
      ok.digest = digest_of(*summary);
      tool_calls = summary->tool_calls;
    } else {
      log::warn("[hermes_task] tool_calls extraction failed: " + summary.error().message);
    }
  }
  if (ok.mode == OutputMode::kFull) ok.tool_calls = tool_calls;
  TaskRecord record{.task_id = ok.task_id,
                    .session_id = ok.session_id,
                    .provider = ok.provider,
                    .model = ok.model,
                    .output_mode = ok.mode == OutputMode::kFull ? "full" : "digest",
                    .result = run.stdout_text,
                    .tool_calls = tool_calls,
                    .digest = ok.digest,
                    .prompt_len = static_cast<int64_t>(utf8_length(args.prompt)),
                    .exit_code = run.exit_code,
                    .duration_ms = run.duration_ms,
                    .created_at = format_iso8601_ms(deps_.now_ms())};
  if (auto written = TaskCache(config.cache_dir).write(record); !written) {
    log::warn("[hermes_task] cache write failed: " + written.error().message);
  }
  return ok;
}

bool TaskService::supports_in_flag(const TaskConfig& config, std::stop_token stop) {
  {
    std::lock_guard lock(mu_);
    if (auto it = in_flag_.find(config.hermes_bin); it != in_flag_.end()) return it->second;
  }
  AgentRun probe;
  probe.argv = {config.hermes_bin, "chat", "--help"};
  probe.timeout = std::chrono::seconds(10);
  probe.kill_grace = std::chrono::milliseconds(500);
  probe.max_stdout_bytes = 1 << 20;
  AgentResult help = deps_.runner->run(probe, stop);
  bool has_in = (help.stdout_text + help.stderr_text).find("--in ") != std::string::npos;
  std::lock_guard lock(mu_);
  in_flag_[config.hermes_bin] = has_in;
  return has_in;
}

std::string TaskService::new_task_id() {
  static constexpr char kDigits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
  std::string suffix;
  {
    std::lock_guard lock(mu_);
    for (int i = 0; i < 6; ++i) suffix += kDigits[rng_() % 36];
  }
  return std::to_string(deps_.now_ms()) + "_" + suffix;
}

}  // namespace hermes::task
