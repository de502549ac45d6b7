// SPDX-License-Identifier: MIT
// hermes_task_detail's edge: schema, arguments, result JSON.
#include "core/strings.h"
#include "tools/task/task_json.h"
#include "tools/task/task_tools.h"

namespace hermes::task {
namespace {

constexpr const char* kDescription =
    "Fetch full detail (uncapped result, tool_calls) for a prior hermes_task run from disk "
    "cache. Pass task_id and/or session_id. Returns {ok, cached, task_id, session_id, provider, "
    "model, result, tool_calls, exit_code, duration_ms}.";

Json schema() {
  return Json::parse(R"json({
    "type": "object",
    "properties": {
      "task_id": {"type": "string", "description": "Task id from a prior hermes_task response"},
      "session_id": {"type": "string", "description": "Hermes session id (used when task_id is unknown or cache miss)"},
      "max_bytes": {"type": "number", "description": "Optional cap on result bytes returned", "default": 0}
    }
  })json");
}

template <class T>
Json or_null(const std::optional<T>& value) {
  return value ? Json(*value) : Json();
}

Json detail_json(const DetailSuccess& found, int64_t max_bytes) {
  const TaskRecord& r = found.record;
  Json out;
  out["ok"] = true;
  out["cached"] = found.cached;
  out["task_id"] = r.task_id.empty() ? Json() : Json(r.task_id);
  out["session_id"] = or_null(r.session_id);
  out["provider"] = or_null(r.provider);
  out["model"] = or_null(r.model);
  out["output_mode"] = r.output_mode;
  if (r.result && max_bytes > 0) {
    out["result"] = std::string(utf8_prefix(*r.result, static_cast<size_t>(max_bytes)));
  } else {
    out["result"] = or_null(r.result);
  }
  out["tool_calls"] = r.tool_calls.is_array() ? r.tool_calls : Json::array();
  out["digest"] = digest_to_json(r.digest);
  out["exit_code"] = or_null(r.exit_code);
  out["duration_ms"] = or_null(r.duration_ms);
  return out;
}

}  // namespace

ToolSpec hermes_task_detail_spec(std::shared_ptr<TaskService> service) {
  ToolSpec spec;
  spec.name = "hermes_task_detail";
  spec.toolset = "task";
  spec.description = kDescription;
  spec.input_schema = schema();
  spec.annotations = {
      .read_only = true, .destructive = false, .idempotent = true, .open_world = false};
  spec.handler = [service](const Json& args, CallContext& ctx) -> Json {
    if (auto wrong = wrong_typed_string(args, {"task_id", "session_id"})) {
      return task_error_json(*wrong);
    }
    DetailArgs parsed{string_arg(args, "task_id").value_or(""),
                      string_arg(args, "session_id").value_or(""),
                      positive_int_arg(args, "max_bytes", 0)};
    DetailOutcome outcome =
        service->detail(parsed, load_task_config(ctx.services.config), ctx.stop);
    if (auto* error = std::get_if<TaskError>(&outcome)) return task_error_json(*error);
    return detail_json(std::get<DetailSuccess>(outcome), parsed.max_bytes);
  };
  return spec;
}

}  // namespace hermes::task
