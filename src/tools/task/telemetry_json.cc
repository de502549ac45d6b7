// SPDX-License-Identifier: MIT
// hermes_telemetry at the JSON edge: window arguments in, the reference's
// payload out (which has no `ok` field).
#include "registry/typed_tool.h"
#include "tools/task/task_json.h"
#include "tools/task/task_tools.h"

namespace hermes::task {
namespace {

constexpr const char* kDescription =
    "Aggregate run telemetry from the Hermes task cache: success rate, exit-code/provider/model "
    "breakdowns, tool/api call totals, duration stats (total/avg/p95) and a ROUGH cost estimate "
    "(estimate flag set — cache has no token counts, so costs are directional, not billing).";

Json schema() {
  return Json::parse(R"json({
    "type": "object",
    "properties": {
      "since": {"type": "string", "description": "ISO-8601 lower bound on created_at (e.g. 2026-08-01T00:00:00Z)"},
      "until": {"type": "string", "description": "ISO-8601 upper bound on created_at"}
    }
  })json");
}

Json breakdown_json(const Breakdown& counts) {
  Json out = Json::object();
  for (const auto& [key, n] : counts) out[key] = n;
  return out;
}

template <class T>
Json or_null(const std::optional<T>& value) {
  return value ? Json(*value) : Json();
}

Json report_json(const TelemetryReport& r) {
  Json out;
  out["window"] = Json{{"since", or_null(r.window.since)},
                       {"until", or_null(r.window.until)},
                       {"earliest", or_null(r.earliest)},
                       {"latest", or_null(r.latest)}};
  out["runs"] = r.runs;
  out["success_rate"] = number_json(r.success_rate);
  out["exit_code_breakdown"] = breakdown_json(r.exit_codes);
  out["provider_breakdown"] = breakdown_json(r.providers);
  out["model_breakdown"] = breakdown_json(r.models);
  out["tool_usage"] = Json{{"tool_calls", r.tool_calls},
                           {"api_calls", r.api_calls},
                           {"messages", r.messages},
                           {"with_digest", r.with_digest},
                           {"tools", breakdown_json(r.tools)}};
  out["duration_ms"] = Json{{"total", number_json(r.duration_total)},
                            {"avg", number_json(r.duration_avg)},
                            {"p95", r.duration_p95}};
  out["estimated_cost_usd"] = number_json(r.estimated_cost_usd);
  out["estimate"] = true;
  return out;
}

Json shape(registry::Of<TelemetryReport>) {
  using registry::integer_type, registry::number_type, registry::object_shape;
  const Json stamp = registry::nullable(registry::string_type());
  const Json counts = registry::map_of(integer_type());
  return object_shape({
      registry::key("window", object_shape({
                                  registry::key("since", stamp),
                                  registry::key("until", stamp),
                                  registry::key("earliest", stamp),
                                  registry::key("latest", stamp),
                              })),
      registry::key("runs", integer_type()),
      registry::key("success_rate", number_type()),
      registry::key("exit_code_breakdown", counts),
      registry::key("provider_breakdown", counts),
      registry::key("model_breakdown", counts),
      registry::key("tool_usage", object_shape({
                                      registry::key("tool_calls", integer_type()),
                                      registry::key("api_calls", integer_type()),
                                      registry::key("messages", integer_type()),
                                      registry::key("with_digest", integer_type()),
                                      registry::key("tools", counts),
                                  })),
      registry::key("duration_ms", object_shape({
                                       registry::key("total", number_type()),
                                       registry::key("avg", number_type()),
                                       registry::key("p95", integer_type()),
                                   })),
      registry::key("estimated_cost_usd", number_type()),
      registry::key("estimate", registry::boolean_type()),
  });
}

std::optional<std::string> bound(const Json& args, const char* key) {
  auto text = string_arg(args, key);
  if (!text || text->empty()) return std::nullopt;
  return text;
}

Result<TelemetryWindow> parse_args(const Json& args) {
  HERMES_TRY(check_string_types(args, {"since", "until"}));
  return TelemetryWindow{bound(args, "since"), bound(args, "until")};
}

}  // namespace

registry::ToolSpec hermes_telemetry_spec() {
  registry::ToolSpec spec;
  spec.name = "hermes_telemetry";
  spec.toolset = "task";
  spec.description = kDescription;
  spec.input_schema = schema();
  spec.output_schema = registry::output_schema<TelemetryReport>([](auto of) { return shape(of); });
  spec.annotations = {
      .read_only = true, .destructive = false, .idempotent = true, .open_world = false};
  spec.run = registry::typed_entry(registry::TypedTool<TelemetryWindow, TelemetryReport>{
      .parse = parse_args,
      .handler = hermes_telemetry,
      .render = report_json,
      .render_error = invalid_args_json,
  });
  return spec;
}

}  // namespace hermes::task
