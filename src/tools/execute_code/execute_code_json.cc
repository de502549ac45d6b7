// SPDX-License-Identifier: MIT
// execute_code at the JSON edge: the arguments in, the result JSON out in
// the contract's key order, the schema and the registration.
#include "tools/execute_code/execute_code_json.h"

#include "json/json.h"
#include "registry/output_schema.h"
#include "registry/registry.h"
#include "registry/typed_tool.h"
#include "tools/execute_code/exec_description.h"
#include "tools/execute_code/exec_settings.h"
#include "tools/execute_code/execute_code.h"
#include "tools/execute_code/interpreter.h"

#include <string>

namespace hermes::execute_code {
namespace {

const char* status_name(ScriptStatus status) {
  switch (status) {
    case ScriptStatus::kSuccess:
      return "success";
    case ScriptStatus::kError:
      return "error";
    case ScriptStatus::kTimeout:
      return "timeout";
    case ScriptStatus::kInterrupted:
      return "interrupted";
  }
  return "error";
}

void add_truncation(Json& out, const ScriptTruncation& truncation) {
  out["stdout_truncated"] = true;
  out["stdout_bytes_captured"] = truncation.captured_bytes;
  out["stdout_bytes_total"] = truncation.total_bytes;
  out["stdout_bytes_omitted"] = truncation.omitted_bytes;
  out["warning"] = truncation.warning;
  if (!truncation.spill_path.empty()) out["stdout_spill_path"] = truncation.spill_path;
}

Json to_json(const ScriptRan& ran) {
  Json out = object_with_room(15);
  out["status"] = status_name(ran.status);
  out["output"] = ran.output;
  out["tool_calls_made"] = ran.tool_calls_made;
  out["duration_seconds"] = ran.duration_seconds;
  // An interrupted run is a failure without an `error` text.
  if (ran.error && ran.status != ScriptStatus::kInterrupted) out["error"] = ran.error->message;
  if (ran.truncation) add_truncation(out, *ran.truncation);
  if (ran.notice) out["notice"] = *ran.notice;
  if (ran.fresh_kernel) out["fresh_kernel"] = *ran.fresh_kernel;
  if (ran.kernel_state_lost) out["kernel_state_lost"] = true;
  if (!ran.images.empty()) out["images_shown"] = ran.images.size();
  return out;
}

Json shape(registry::Of<ScriptRan>) {
  using registry::boolean_type, registry::integer_type, registry::string_type;
  return registry::object_shape({
      registry::key("status", registry::enum_of({"success", "error", "timeout", "interrupted"})),
      registry::key("output", string_type()),
      registry::key("tool_calls_made", integer_type()),
      registry::key("duration_seconds", registry::number_type()),
      registry::optional_key("error", string_type()),
      registry::optional_key("stdout_truncated", boolean_type()),
      registry::optional_key("stdout_bytes_captured", integer_type()),
      registry::optional_key("stdout_bytes_total", integer_type()),
      registry::optional_key("stdout_bytes_omitted", integer_type()),
      registry::optional_key("warning", string_type()),
      registry::optional_key("stdout_spill_path", string_type()),
      registry::optional_key("notice", string_type()),
      registry::optional_key("fresh_kernel", string_type()),
      registry::optional_key("kernel_state_lost", boolean_type()),
      registry::optional_key("images_shown", integer_type()),
  });
}

Json to_json(const ScriptFailed& failed) {
  Json out = Json::object();
  out["status"] = "error";
  out["error"] = failed.error.message;
  out["tool_calls_made"] = failed.tool_calls_made;
  out["duration_seconds"] = failed.duration_seconds;
  return out;
}

Json shape(registry::Of<ScriptFailed>) { return registry::never_structured(); }

Json schema() {
  return Json::parse(R"json({
    "type": "object",
    "properties": {
      "code": {"type": "string", "description": "Python code to execute. Import tools with `from hermes_tools import read_file, terminal, ...` and print your final result to stdout."},
      "reset": {"type": "boolean", "default": false, "description": "Restart the session's Python kernel before running the code: globals, imports and the working directory start afresh."}
    },
    "required": ["code"]
  })json");
}

}  // namespace

Result<ExecuteCodeParams> parse_execute_code_params(const Json& args) {
  auto code = args.find("code");
  if (code == args.end() || !code->is_string() ||
      code->get_ref<const std::string&>().find_first_not_of(" \t\r\n") == std::string::npos) {
    return Error::InvalidArgument("No code provided.");
  }
  bool reset = false;
  if (auto flag = args.find("reset"); flag != args.end() && !flag->is_null()) {
    if (!flag->is_boolean()) return Error::InvalidArgument("reset must be a boolean.");
    reset = flag->get<bool>();
  }
  return ExecuteCodeParams{.code = code->get<std::string>(), .reset = reset};
}

std::vector<registry::ContentBlock> execute_code_images(const ExecuteCodeOutput& output) {
  std::vector<registry::ContentBlock> out;
  if (const auto* ran = std::get_if<ScriptRan>(&output)) {
    for (const std::string& png : ran->images) out.push_back({"image/png", png});
  }
  return out;
}

Json execute_code_json(const ExecuteCodeOutput& output) {
  return std::visit([](const auto& outcome) { return to_json(outcome); }, output);
}

void register_execute_code(registry::Registry& registry) {
  const registry::Registry* owner = &registry;
  registry.add(registry::ToolSpec{
      .name = "execute_code",
      .toolset = "code",
      .description = "Run a Python script that can call Hermes tools programmatically.",
      .input_schema = schema(),
      .output_schema =
          registry::output_schema<ExecuteCodeOutput>([](auto of) { return shape(of); }),
      .annotations =
          {.read_only = false, .destructive = true, .idempotent = false, .open_world = true},
      .run = registry::typed_entry(registry::TypedTool<ExecuteCodeParams, ExecuteCodeOutput>{
          .parse = parse_execute_code_params,
          .handler = run_execute_code,
          .render = execute_code_json,
          .failure = execute_code_failure,
          .content = execute_code_images,
      }),
      // A script runs until it ends or times out.
      .long_running = registry::when_parsed(
          parse_execute_code_params, +[](const ExecuteCodeParams&) { return true; }),
      // A script may write any file; its terminal() calls are checkpoints of their own.
      .changes = registry::changes_when_parsed(
          parse_execute_code_params,
          +[](const ExecuteCodeParams& params) {
            return std::optional(
                checkpoint::Footprint{{}, true, params.code.substr(0, params.code.find('\n'))});
          }),
      .is_available =
          [](const registry::Services& services) {
            return !execute_code::system_python().empty() ||
                   execute_code::runs_elsewhere(services.config);
          },
      // A session lists its tools right after it starts: the moment to have
      // a kernel ready for its first call.
      .describe =
          [owner](const registry::Services& services, const std::string&) {
            execute_code::prestart_kernel(*owner, services);
            return execute_code::describe(*owner, services);
          },
  });
}

}  // namespace hermes::execute_code
