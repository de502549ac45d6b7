// SPDX-License-Identifier: MIT
// The one shape of a fixture tool's result: the text the suite expects, then
// any further content blocks. Fixture arguments, when they have any, are one
// string each (a prompt, a message) or the arguments echoed back.
#pragma once

#include "core/result.h"
#include "json/json.h"
#include "registry/client_channel.h"
#include "registry/typed_tool.h"

#include <chrono>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

namespace hermes::conformance {

// A 1x1 red PNG, as the suite's reference server sends.
inline constexpr std::string_view kPngBase64 =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg"
    "==";

struct FixtureOutput {
  std::string text;
  std::vector<registry::ContentBlock> content;
};

struct FixtureParams {
  Json args;  // the call's arguments, an object
};

// A fixture registered with its schema and handler: the text is sent as is
// (not as a JSON object), and a failure's message is the text of an isError
// result.
registry::ToolSpec fixture_tool(
    std::string name, std::string description, Json input_schema,
    std::function<Result<FixtureOutput>(const FixtureParams&, registry::CallContext&)> handler);

// How long a fixture waits for the client to answer one of its questions.
inline constexpr std::chrono::milliseconds kAnswerTimeout{30000};

// An elicitation/create asking for one field (`field`, of JSON Schema
// `type`), under `key`, through the call's channel as any tool asks.
std::optional<Json> ask_field(registry::ClientChannel& client, std::stop_token stop,
                              const std::string& key, const std::string& message,
                              const std::string& field, const std::string& type);

// `{"type":"object","properties":{}}`, with the named string properties
// required when given.
Json string_args_schema(const std::vector<std::pair<std::string, std::string>>& required);

}  // namespace hermes::conformance
