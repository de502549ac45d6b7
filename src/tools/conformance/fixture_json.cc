// SPDX-License-Identifier: MIT
#include "tools/conformance/fixture_json.h"

namespace hermes::conformance {
namespace {

Result<FixtureParams> parse_fixture_params(const Json& args) { return FixtureParams{args}; }

Json render_fixture(const FixtureOutput& output) { return output.text; }

std::vector<registry::ContentBlock> fixture_content(const FixtureOutput& output) {
  return output.content;
}

Json render_fixture_error(const Error& error) { return error.message; }

}  // namespace

std::optional<Json> ask_field(registry::ClientChannel& client, std::stop_token stop,
                              const std::string& key, const std::string& message,
                              const std::string& field, const std::string& type) {
  Json schema = {{"type", "object"},
                 {"properties", {{field, {{"type", type}}}}},
                 {"required", Json::array({field})}};
  return client.request_named(key, "elicitation/create",
                              {{"message", message}, {"requestedSchema", std::move(schema)}},
                              kAnswerTimeout, std::move(stop));
}

registry::ToolSpec fixture_tool(
    std::string name, std::string description, Json input_schema,
    std::function<Result<FixtureOutput>(const FixtureParams&, registry::CallContext&)> handler) {
  return registry::ToolSpec{
      .name = std::move(name),
      .toolset = "conformance",
      .description = std::move(description),
      .input_schema = std::move(input_schema),
      .annotations = {.read_only = true, .destructive = false, .idempotent = true},
      .run = registry::typed_entry(
          registry::TypedTool<FixtureParams, FixtureOutput>{.parse = parse_fixture_params,
                                                            .handler = std::move(handler),
                                                            .render = render_fixture,
                                                            .render_error = render_fixture_error,
                                                            .content = fixture_content}),
  };
}

Json string_args_schema(const std::vector<std::pair<std::string, std::string>>& required) {
  Json schema = {{"type", "object"}, {"properties", Json::object()}};
  if (required.empty()) return schema;
  schema["required"] = Json::array();
  for (const auto& [name, description] : required) {
    schema["properties"][name] = {{"type", "string"}, {"description", description}};
    schema["required"].push_back(name);
  }
  return schema;
}

}  // namespace hermes::conformance
