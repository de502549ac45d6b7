// SPDX-License-Identifier: MIT
// The fixtures of the input-required scenarios (input-required-result-*):
// tools that ask their client named questions through the call's
// ClientChannel (request_named), as any tool does. On the 2026-07-28 wire
// the channel is an InputRound (mcp/input_round.h): a first run's questions
// become the input_required result, and the retry finds their answers.
#include "registry/client_channel.h"
#include "tools/conformance/conformance.h"
#include "tools/conformance/fixture_json.h"

#include <chrono>
#include <stop_token>

namespace hermes::conformance {
namespace {

// The accepted elicitation's `field`, as text; empty when there is none.
std::string accepted(const std::optional<Json>& reply, const std::string& field) {
  if (!reply || !reply->is_object() || reply->value("action", std::string()) != "accept") return "";
  Json content = reply->value("content", Json::object());
  if (!content.is_object() || !content.contains(field)) return "";
  return content[field].is_string() ? content[field].get<std::string>() : dump_json(content[field]);
}

std::optional<Json> ask_sampling(registry::CallContext& ctx, const std::string& key,
                                 const std::string& prompt, int max_tokens) {
  Json request = {
      {"messages",
       Json::array({{{"role", "user"}, {"content", {{"type", "text"}, {"text", prompt}}}}})},
      {"maxTokens", max_tokens}};
  return ctx.client.request_named(key, "sampling/createMessage", request, kAnswerTimeout, ctx.stop);
}

// A sampling result's text, else "".
std::string sampled(const std::optional<Json>& reply) {
  if (!reply || !reply->is_object()) return "";
  Json content = reply->value("content", Json::object());
  return content.is_object() && content.value("text", Json()).is_string()
             ? content["text"].get<std::string>()
             : "";
}

std::optional<Json> ask_roots(registry::CallContext& ctx, const std::string& key) {
  return ctx.client.request_named(key, "roots/list", Json::object(), kAnswerTimeout, ctx.stop);
}

// A roots/list result's URIs, comma separated.
std::string root_uris(const std::optional<Json>& reply) {
  std::string uris;
  const Json roots = reply && reply->is_object() ? reply->value("roots", Json()) : Json();
  if (!roots.is_array()) return uris;
  for (const Json& root : roots) {
    if (!root.is_object() || !root.value("uri", Json()).is_string()) continue;
    uris += (uris.empty() ? "" : ", ") + root["uri"].get<std::string>();
  }
  return uris;
}

// prompts/get asks for the context its message uses.
Json prompt_with_context(const Json&, registry::ClientChannel& client) {
  auto reply = ask_field(client, {}, "user_context", "What context should the prompt use?",
                         "context", "string");
  Json text = {{"type", "text"}, {"text", "Prompt with context: " + accepted(reply, "context")}};
  return Json::array({{{"role", "user"}, {"content", std::move(text)}}});
}

Result<FixtureOutput> elicitation(const FixtureParams&, registry::CallContext& ctx) {
  auto reply = ask_field(ctx.client, ctx.stop, "user_name", "What is your name?", "name", "string");
  return FixtureOutput{"Hello, " + accepted(reply, "name") + "!"};
}

Result<FixtureOutput> sampling(const FixtureParams&, registry::CallContext& ctx) {
  auto reply = ask_sampling(ctx, "capital_question", "What is the capital of France?", 100);
  return FixtureOutput{"LLM response: " + sampled(reply)};
}

Result<FixtureOutput> list_roots(const FixtureParams&, registry::CallContext& ctx) {
  return FixtureOutput{"Client roots: " + root_uris(ask_roots(ctx, "client_roots"))};
}

Result<FixtureOutput> confirm(const FixtureParams&, registry::CallContext& ctx) {
  auto reply = ask_field(ctx.client, ctx.stop, "confirm", "Please confirm", "ok", "boolean");
  return FixtureOutput{"Confirmed: " + accepted(reply, "ok")};
}

// Three questions at once, one of each kind.
Result<FixtureOutput> multiple_inputs(const FixtureParams&, registry::CallContext& ctx) {
  auto name = ask_field(ctx.client, ctx.stop, "user_name", "What is your name?", "name", "string");
  auto greeting = ask_sampling(ctx, "greeting", "Generate a greeting", 50);
  auto roots = ask_roots(ctx, "client_roots");
  return FixtureOutput{"Name: " + accepted(name, "name") + "; greeting: " + sampled(greeting) +
                       "; roots: " + root_uris(roots)};
}

// The second question is asked only once the first is answered, so each
// takes a round of its own.
Result<FixtureOutput> multi_round(const FixtureParams&, registry::CallContext& ctx) {
  auto name =
      ask_field(ctx.client, ctx.stop, "step1", "Step 1: What is your name?", "name", "string");
  if (!name) return FixtureOutput{"No name given"};
  auto color = ask_field(ctx.client, ctx.stop, "step2", "Step 2: What is your favorite color?",
                         "color", "string");
  return FixtureOutput{accepted(name, "name") + " likes " + accepted(color, "color")};
}

// Asks whatever the client can answer: the channel drops a question whose
// capability the request did not declare.
Result<FixtureOutput> capabilities(const FixtureParams&, registry::CallContext& ctx) {
  auto name = ask_field(ctx.client, ctx.stop, "user_name", "What is your name?", "name", "string");
  auto capital = ask_sampling(ctx, "capital_question", "What is the capital of France?", 100);
  return FixtureOutput{"Name: " + accepted(name, "name") + "; LLM response: " + sampled(capital)};
}

}  // namespace

void register_input_required_fixtures(registry::Registry& registry) {
  const Json no_args = string_args_schema({});
  struct Fixture {
    const char* name;
    const char* description;
    Result<FixtureOutput> (*handler)(const FixtureParams&, registry::CallContext&);
  };
  const Fixture fixtures[] = {
      {"test_input_required_result_elicitation", "Asks the user's name (input_required)",
       elicitation},
      {"test_input_required_result_sampling", "Asks the client's LLM a question (input_required)",
       sampling},
      {"test_input_required_result_list_roots", "Asks the client's roots (input_required)",
       list_roots},
      {"test_input_required_result_request_state", "Asks a confirmation (input_required)", confirm},
      {"test_input_required_result_tampered_state",
       "Asks a confirmation; its requestState is signed (input_required)", confirm},
      {"test_input_required_result_multiple_inputs",
       "Asks an elicitation, a sampling and the roots at once (input_required)", multiple_inputs},
      {"test_input_required_result_multi_round", "Asks two questions, one per round", multi_round},
      {"test_input_required_result_capabilities",
       "Asks only what the client declared it can answer (input_required)", capabilities},
  };
  for (const Fixture& f : fixtures) {
    registry.add(fixture_tool(f.name, f.description, no_args, f.handler));
  }
  registry.add_prompt({.name = "test_input_required_result_prompt",
                       .title = "Prompt With Input Required",
                       .description = "A prompt that asks the user for its context",
                       .toolset = "conformance",
                       .get = prompt_with_context});
}

}  // namespace hermes::conformance
