// SPDX-License-Identifier: MIT
// hermes_task at the JSON edge: schema, argument parsing, result JSON.
#include "registry/typed_tool.h"
#include "tools/task/task_json.h"
#include "tools/task/task_tools.h"

#include <algorithm>
#include <cmath>

namespace hermes::task {
namespace {

constexpr const char* kDescription =
    "Dispatch a one-shot agentic task to the local Hermes Agent CLI using an alive free-tier "
    "provider. Returns the final response JSON ({ok, provider, model, result, ...}). Never "
    "hangs on fallback retry.";

Json schema() {
  return Json::parse(R"json({
    "type": "object",
    "properties": {
      "prompt": {"type": "string", "description": "Task prompt to send to Hermes (required; max ~4000 chars — longer prompts are rejected with prompt_too_long, so keep it concise or split into smaller tasks)"},
      "provider": {"type": "string", "description": "Provider: \"auto\" (default) or explicit name", "default": "auto"},
      "model": {"type": "string", "description": "Explicit model id (defaults to capability map)", "default": ""},
      "timeout_seconds": {"type": "number", "description": "Timeout in seconds (10-1800)", "default": 300},
      "cwd": {"type": "string", "description": "Working directory (must be in cwdAllowlist)", "default": ""},
      "toolsets": {"type": "string", "description": "Hermes toolsets to enable", "default": ""},
      "max_turns": {"type": "number", "description": "Max conversation turns", "default": 500},
      "output_mode": {"type": "string", "enum": ["digest", "full"], "description": "digest (compact result + stats, default) or full (uncapped result + tool_calls)", "default": "digest"}
    },
    "required": ["prompt"]
  })json");
}

// Absent, null, booleans, "" and other non-numbers mean the default 300 s
// (the reference turned null/""/false into 0 → 10 s).
int64_t timeout_seconds(const Json& args) {
  auto value = number_arg(args, "timeout_seconds");
  if (!value) return 300;
  // Clamped as a double: a cast of one past int64 is undefined.
  return static_cast<int64_t>(std::clamp(std::floor(*value + 0.5), 10.0, 1800.0));
}

std::string toolsets(const Json& args) {
  if (auto text = string_arg(args, "toolsets")) return *text;
  auto it = args.is_object() ? args.find("toolsets") : args.end();
  if (!args.is_object() || it == args.end() || !it->is_array()) return "";
  std::string joined;
  for (const Json& item : *it) {
    if (!item.is_string()) continue;
    joined += (joined.empty() ? "" : ",") + item.get<std::string>();
  }
  return joined;
}

Result<TaskArgs> parse_args(const Json& args) {
  HERMES_TRY(check_string_types(args, {"prompt", "provider", "model", "cwd", "output_mode"}));
  TaskArgs out;
  out.prompt = string_arg(args, "prompt").value_or("");
  out.provider = string_arg(args, "provider").value_or("auto");
  out.model = string_arg(args, "model").value_or("");
  out.timeout_seconds = timeout_seconds(args);
  out.cwd = string_arg(args, "cwd").value_or("");
  out.toolsets = toolsets(args);
  out.max_turns = positive_int_arg(args, "max_turns", 500);
  out.full_output = string_arg(args, "output_mode").value_or("") == "full";
  return out;
}

Json success_json(const TaskSuccess& ok) {
  Json out;
  out["ok"] = true;
  out["provider"] = ok.provider;
  out["model"] = ok.model;
  out["task_id"] = ok.task_id;
  out["output_mode"] = ok.mode == OutputMode::kFull ? "full" : "digest";
  out["result"] = ok.result;
  out["truncated"] = ok.truncated;
  out["exit_code"] = ok.exit_code ? Json(*ok.exit_code) : Json();
  out["duration_ms"] = ok.duration_ms;
  out["session_id"] = ok.session_id ? Json(*ok.session_id) : Json();
  if (ok.mode == OutputMode::kDigest) out["digest"] = digest_to_json(ok.digest);
  if (ok.mode == OutputMode::kFull && !ok.tool_calls.is_null()) out["tool_calls"] = ok.tool_calls;
  return out;
}

Json shape(registry::Of<TaskSuccess>) {
  using registry::integer_type, registry::nullable, registry::string_type;
  return registry::object_shape({
      registry::key("ok", registry::boolean_type()),
      registry::key("provider", string_type()),
      registry::key("model", string_type()),
      registry::key("task_id", string_type()),
      registry::key("output_mode", registry::enum_of({"full", "digest"})),
      registry::key("result", string_type()),
      registry::key("truncated", registry::boolean_type()),
      registry::key("exit_code", nullable(integer_type())),
      registry::key("duration_ms", integer_type()),
      registry::key("session_id", nullable(string_type())),
      registry::optional_key("digest", digest_shape()),
      // The agent's own records, passed through.
      registry::optional_key("tool_calls", registry::any_value()),
  });
}

}  // namespace

registry::ToolSpec hermes_task_spec(std::shared_ptr<TaskService> service) {
  registry::ToolSpec spec;
  spec.name = "hermes_task";
  spec.toolset = "task";
  spec.description = kDescription;
  spec.input_schema = schema();
  spec.output_schema = registry::output_schema<TaskOutcome>([](auto of) { return shape(of); });
  spec.annotations = {
      .read_only = false, .destructive = true, .idempotent = false, .open_world = true};
  spec.run = registry::typed_entry(registry::TypedTool<TaskArgs, TaskOutcome>{
      .parse = parse_args,
      .handler = [service](
                     const TaskArgs& params,
                     registry::CallContext& ctx) { return hermes_task(*service, params, ctx); },
      .render = outcome_json<TaskSuccess, success_json>,
      .failure = task_failure<TaskSuccess>,
      .render_error = invalid_args_json,
  });
  // An agent's run takes minutes and reports its own progress.
  spec.long_running = [](const Json&) { return true; };
  spec.own_progress = true;
  return spec;
}

}  // namespace hermes::task
