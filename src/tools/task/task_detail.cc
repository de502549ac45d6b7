// SPDX-License-Identifier: MIT
// hermes_task_detail: cache by task_id, then by session_id, then a live
// session export that is itself cached.
#include "core/log.h"
#include "core/strings.h"
#include "tools/task/iso_time.h"
#include "tools/task/session_export.h"
#include "tools/task/task_service.h"

namespace hermes::task {
namespace {

TaskError not_found(std::string detail) { return task_error("not_found", std::move(detail)); }

// Both ids become file names (`<task_id>.json`, `ses_<session_id>.json`).
std::optional<TaskError> check_ids(const DetailArgs& args) {
  if (args.task_id.empty() && args.session_id.empty()) {
    return task_error("invalid_args", "task_id or session_id is required");
  }
  for (const auto& [name, value] :
       {std::pair{"task_id", &args.task_id}, std::pair{"session_id", &args.session_id}}) {
    if (!value->empty() && !is_valid_id(*value)) {
      return task_error("invalid_args",
                        std::string(name) + " must be 1-128 characters of [A-Za-z0-9_-]");
    }
  }
  return std::nullopt;
}

}  // namespace

DetailOutcome TaskService::detail(const DetailArgs& raw, const TaskConfig& config,
                                  std::stop_token stop) {
  DetailArgs args{trim(raw.task_id), trim(raw.session_id), raw.max_bytes};
  if (auto error = check_ids(args)) return *error;
  TaskCache cache(config.cache_dir);
  std::optional<TaskRecord> record;
  if (!args.task_id.empty()) record = cache.read(args.task_id);
  if (!record && !args.session_id.empty()) record = cache.find_by_session(args.session_id);
  if (record) return DetailSuccess{std::move(*record), true};
  if (args.session_id.empty()) return not_found("no cached run matches task_id/session_id");
  auto summary = export_session(*deps_.runner, config, args.session_id, stop);
  if (!summary) return not_found("session export failed: " + summary.error().message);
  TaskRecord live{
      .task_id = "ses_" + args.session_id,
      .session_id = args.session_id,
      .provider = summary->provider.empty() ? std::nullopt : std::optional(summary->provider),
      .model = summary->model.empty() ? std::nullopt : std::optional(summary->model),
      .output_mode = "full",
      .tool_calls = summary->tool_calls,
      .exit_code = 0,
      .created_at = format_iso8601_ms(deps_.now_ms())};
  if (auto written = cache.write(live); !written) {
    log::warn("[hermes_task] cache write failed: " + written.error().message);
  }
  return DetailSuccess{std::move(live), false};
}

}  // namespace hermes::task
