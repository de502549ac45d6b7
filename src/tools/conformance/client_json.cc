// SPDX-License-Identifier: MIT
// The fixtures that talk to the client while they run, through the call's
// ClientChannel as any tool does: log messages and progress notifications,
// sampling and elicitation requests (tools-call-with-logging,
// tools-call-with-progress, tools-call-sampling, tools-call-elicitation,
// elicitation-sep1034-defaults, elicitation-sep1330-enums).
#include "registry/client_channel.h"
#include "tools/conformance/conformance.h"
#include "tools/conformance/fixture_json.h"

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace hermes::conformance {
namespace {

using namespace std::chrono_literals;

// How long a fixture waits for the client's answer to its request.

// The pause between a fixture's notifications, so that a client sees them
// arrive one by one while the call runs, as the scenarios ask.
void pause(registry::CallContext& ctx) {
  std::mutex mu;
  std::condition_variable_any wake;
  std::unique_lock lock(mu);
  wake.wait_for(lock, ctx.stop, 50ms, [] { return false; });
}

Result<FixtureOutput> with_logging(const FixtureParams&, registry::CallContext& ctx) {
  const char* steps[] = {"Tool execution started", "Tool processing data",
                         "Tool execution completed"};
  for (const char* step : steps) {
    if (step != steps[0]) pause(ctx);
    ctx.client.notify("notifications/message",
                      {{"level", "info"}, {"logger", "conformance"}, {"data", step}});
  }
  return FixtureOutput{"Tool with logging executed successfully"};
}

Result<FixtureOutput> with_progress(const FixtureParams&, registry::CallContext& ctx) {
  for (int step : {0, 50, 100}) {
    if (step != 0) pause(ctx);
    if (ctx.progress_token.is_null()) continue;
    ctx.client.notify("notifications/progress",
                      {{"progressToken", ctx.progress_token},
                       {"progress", step},
                       {"total", 100},
                       {"message", "Completed step " + std::to_string(step) + " of 100"}});
  }
  return FixtureOutput{ctx.progress_token.is_null() ? "0" : dump_json(ctx.progress_token)};
}

std::string string_arg(const FixtureParams& params, const char* key) {
  auto it = params.args.find(key);
  return it != params.args.end() && it->is_string() ? it->get<std::string>() : "";
}

Result<FixtureOutput> sampling(const FixtureParams& params, registry::CallContext& ctx) {
  Json request = {
      {"messages",
       Json::array({{{"role", "user"},
                     {"content", {{"type", "text"}, {"text", string_arg(params, "prompt")}}}}})},
      {"maxTokens", 100}};
  auto reply = ctx.client.request("sampling/createMessage", request, kAnswerTimeout, ctx.stop);
  if (!reply) return FixtureOutput{"Sampling not supported or error: no answer from the client"};
  const Json& content = reply->is_object() ? reply->value("content", Json()) : Json();
  std::string text = content.is_object() && content.value("text", Json()).is_string()
                         ? content["text"].get<std::string>()
                         : "No response";
  return FixtureOutput{"LLM response: " + text};
}

// An elicitation/create with `schema`, answered as the reference server does.
Result<FixtureOutput> elicit(registry::CallContext& ctx, const std::string& message, Json schema,
                             const std::string& label) {
  Json request = {{"message", message}, {"requestedSchema", std::move(schema)}};
  auto reply = ctx.client.request("elicitation/create", request, kAnswerTimeout, ctx.stop);
  if (!reply || !reply->is_object()) {
    return FixtureOutput{"Elicitation not supported or error: no answer from the client"};
  }
  Json content = reply->value("content", Json::object());
  return FixtureOutput{label + ": action=" + reply->value("action", std::string()) +
                       ", content=" + dump_json(content)};
}

Result<FixtureOutput> elicitation(const FixtureParams& params, registry::CallContext& ctx) {
  Json schema = {
      {"type", "object"},
      {"properties", {{"response", {{"type", "string"}, {"description", "User's response"}}}}},
      {"required", Json::array({"response"})}};
  return elicit(ctx, string_arg(params, "message"), std::move(schema), "User response");
}

// SEP-1034: a default for every primitive type.
Result<FixtureOutput> elicitation_defaults(const FixtureParams&, registry::CallContext& ctx) {
  Json schema = Json::parse(R"js({"type": "object", "properties": {
    "name": {"type": "string", "description": "User name", "default": "John Doe"},
    "age": {"type": "integer", "description": "User age", "default": 30},
    "score": {"type": "number", "description": "User score", "default": 95.5},
    "status": {"type": "string", "description": "User status",
               "enum": ["active", "inactive", "pending"], "default": "active"},
    "verified": {"type": "boolean", "description": "Verification status", "default": true}},
    "required": []})js");
  return elicit(ctx, "Please review and update the form fields with defaults", std::move(schema),
                "Elicitation completed");
}

// SEP-1330: the five enum forms.
Result<FixtureOutput> elicitation_enums(const FixtureParams&, registry::CallContext& ctx) {
  Json schema = Json::parse(R"js({"type": "object", "properties": {
    "untitledSingle": {"type": "string", "description": "Select one option",
                       "enum": ["option1", "option2", "option3"]},
    "titledSingle": {"type": "string", "description": "Select one option with titles",
                     "oneOf": [{"const": "value1", "title": "First Option"},
                               {"const": "value2", "title": "Second Option"},
                               {"const": "value3", "title": "Third Option"}]},
    "legacyEnum": {"type": "string", "description": "Select one option (legacy)",
                   "enum": ["opt1", "opt2", "opt3"],
                   "enumNames": ["Option One", "Option Two", "Option Three"]},
    "untitledMulti": {"type": "array", "description": "Select multiple options",
                      "minItems": 1, "maxItems": 3,
                      "items": {"type": "string", "enum": ["option1", "option2", "option3"]}},
    "titledMulti": {"type": "array", "description": "Select multiple options with titles",
                    "minItems": 1, "maxItems": 3,
                    "items": {"anyOf": [{"const": "value1", "title": "First Choice"},
                                        {"const": "value2", "title": "Second Choice"},
                                        {"const": "value3", "title": "Third Choice"}]}}},
    "required": []})js");
  return elicit(ctx, "Please select options from the enum fields", std::move(schema),
                "Elicitation completed");
}

}  // namespace

// A tool that asks the client for a completion, so needs `sampling`
// declared (server-stateless's undeclared-capability checks).
Result<FixtureOutput> needs_sampling(const FixtureParams&, registry::CallContext&) {
  return FixtureOutput{"Success"};
}

Result<FixtureOutput> streaming_elicitation(const FixtureParams&, registry::CallContext& ctx) {
  return elicit(ctx, "Please confirm", {{"type", "object"}, {"properties", Json::object()}},
                "User response");
}

void register_client_fixtures(registry::Registry& registry) {
  const Json no_args = string_args_schema({});
  registry.add(fixture_tool("test_tool_with_logging",
                            "Tests tool that emits log messages during execution", no_args,
                            with_logging));
  registry.add(fixture_tool("test_tool_with_progress",
                            "Tests tool that reports progress notifications", no_args,
                            with_progress));
  registry.add(
      fixture_tool("test_sampling", "Tests server-initiated sampling (LLM completion request)",
                   string_args_schema({{"prompt", "The prompt to send to the LLM"}}), sampling));
  registry.add(
      fixture_tool("test_elicitation", "Tests server-initiated elicitation (user input request)",
                   string_args_schema({{"message", "The message to show the user"}}), elicitation));
  registry.add(fixture_tool("test_elicitation_sep1034_defaults",
                            "Tests elicitation with default values per SEP-1034", no_args,
                            elicitation_defaults));
  registry.add(fixture_tool("test_elicitation_sep1330_enums",
                            "Tests elicitation with enum schema improvements per SEP-1330", no_args,
                            elicitation_enums));
  // The modern wire's diagnostics (server-stateless): a call that logs, and
  // one that asks, neither of which may put anything but notifications and
  // its result on its response stream; and one that needs `sampling`.
  registry.add(fixture_tool("test_logging_tool", "Diagnostic logging validator tool", no_args,
                            with_logging));
  registry.add(fixture_tool("test_streaming_elicitation",
                            "Diagnostic tool validating response progress streams", no_args,
                            streaming_elicitation));
  registry::ToolSpec missing = fixture_tool(
      "test_missing_capability", "Test tool requiring sampling", no_args, needs_sampling);
  missing.client_capabilities = {{"sampling", Json::object()}};
  registry.add(std::move(missing));
}

}  // namespace hermes::conformance
