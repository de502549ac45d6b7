// SPDX-License-Identifier: MIT
// hermes_task_detail at the JSON edge: schema, arguments, result JSON.
#include "registry/typed_tool.h"
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

Json detail_json(const DetailSuccess& found) {
  const TaskRecord& r = found.record;
  Json out;
  out["ok"] = true;
  out["cached"] = found.cached;
  out["task_id"] = r.task_id.empty() ? Json() : Json(r.task_id);
  out["session_id"] = or_null(r.session_id);
  out["provider"] = or_null(r.provider);
  out["model"] = or_null(r.model);
  out["output_mode"] = r.output_mode;
  out["result"] = or_null(r.result);
  out["tool_calls"] = r.tool_calls.is_array() ? r.tool_calls : Json::array();
  out["digest"] = digest_to_json(r.digest);
  out["exit_code"] = or_null(r.exit_code);
  out["duration_ms"] = or_null(r.duration_ms);
  return out;
}

Json shape(registry::Of<DetailSuccess>) {
  using registry::integer_type, registry::nullable, registry::string_type;
  return registry::object_shape({
      registry::key("ok", registry::boolean_type()),
      registry::key("cached", registry::boolean_type()),
      registry::key("task_id", nullable(string_type())),
      registry::key("session_id", nullable(string_type())),
      registry::key("provider", nullable(string_type())),
      registry::key("model", nullable(string_type())),
      registry::key("output_mode", string_type()),
      registry::key("result", nullable(string_type())),
      // The agent's own records, passed through.
      registry::key("tool_calls", registry::array_of(registry::any_value())),
      registry::key("digest", digest_shape()),
      registry::key("exit_code", nullable(integer_type())),
      registry::key("duration_ms", nullable(integer_type())),
  });
}

Result<DetailArgs> parse_args(const Json& args) {
  HERMES_TRY(check_string_types(args, {"task_id", "session_id"}));
  return DetailArgs{string_arg(args, "task_id").value_or(""),
                    string_arg(args, "session_id").value_or(""),
                    positive_int_arg(args, "max_bytes", 0)};
}

}  // namespace

registry::ToolSpec hermes_task_detail_spec(std::shared_ptr<TaskService> service) {
  registry::ToolSpec spec;
  spec.name = "hermes_task_detail";
  spec.toolset = "task";
  spec.description = kDescription;
  spec.input_schema = schema();
  spec.output_schema = registry::output_schema<DetailOutcome>([](auto of) { return shape(of); });
  spec.annotations = {
      .read_only = true, .destructive = false, .idempotent = true, .open_world = false};
  spec.run = registry::typed_entry(registry::TypedTool<DetailArgs, DetailOutcome>{
      .parse = parse_args,
      .handler =
          [service](const DetailArgs& params, registry::CallContext& ctx) {
            return hermes_task_detail(*service, params, ctx);
          },
      .render = outcome_json<DetailSuccess, detail_json>,
      .failure = task_failure<DetailSuccess>,
      .render_error = invalid_args_json,
  });
  return spec;
}

}  // namespace hermes::task
