// SPDX-License-Identifier: MIT
// The binary's real tool table through the router, with arguments made from
// each tool's inputSchema: properties given values of every JSON type
// (wrong-typed ones included), fuzzed strings and numbers, unknown keys. A
// throw past the router, a result that is not one JSON object, or an answer
// by the dispatcher's last-resort "Internal error" (a parser that threw
// instead of naming the argument) is a crash.
//
// Nothing the fuzzer writes may run: every session backend fails to start,
// so terminal, execute_code and the file tools stop at their backend, after
// their arguments are parsed. The harness moves into a network namespace of
// its own (it runs as root in CI), so the web tools' lookups fail at once
// and reach nothing; without one it leaves the web toolset out.
#include "core/config.h"
#include "core/paths.h"
#include "mcp/router.h"
#include "registry/client_channel.h"
#include "registry/session.h"
#include "testutil/schema_args.h"
#include "tools/register_all.h"

#include <fuzzer/FuzzedDataProvider.h>
#include <sched.h>
#include <stdlib.h>

#include <cstdint>
#include <cstdlib>
#include <memory>

namespace {

using hermes::Json;
namespace registry = hermes::registry;
namespace mcp = hermes::mcp;

struct Harness {
  std::unique_ptr<hermes::Config> config = hermes::Config::from_yaml("");
  hermes::PathResolver paths;
  registry::Services services{*config, paths};
  registry::Registry table;
  std::unique_ptr<mcp::Router> router;
  registry::Session session{"fuzz"};
  registry::NullClientChannel client;
  std::vector<const registry::ToolSpec*> tools;

  Harness() {
    services.backends =
        [](const hermes::Config&) -> hermes::Result<std::shared_ptr<hermes::backend::Backend>> {
      return hermes::Error::Unavailable("fuzzing: no backend runs commands");
    };
    ::setenv("HERMES_TOOLS_DDG_BASE_URL", "http://127.0.0.1:9/", 1);
    hermes::tools::register_all_tools(table);
    if (::unshare(CLONE_NEWNET) != 0) table.enable_toolsets({"file", "terminal", "code", "task"});
    router = std::make_unique<mcp::Router>(table, services, mcp::RouterOptions{});
    tools = table.list(services);
  }
};

Json fuzzed_value(FuzzedDataProvider& in) {
  const auto& probes = hermes::testing::probe_values();
  switch (in.ConsumeIntegralInRange<int>(0, 5)) {
    case 0:
      return in.ConsumeRandomLengthString(64);
    case 1:
      return in.ConsumeIntegral<int64_t>();
    case 2:
      return in.ConsumeFloatingPoint<double>();
    case 3:
      return Json::array({in.ConsumeRandomLengthString(32)});
    default:
      return probes[in.ConsumeIntegralInRange<size_t>(0, probes.size() - 1)];
  }
}

// A property of the tool's schema, or now and then a key it does not know.
std::string fuzzed_key(FuzzedDataProvider& in, const Json& properties) {
  if (properties.empty() || in.ConsumeIntegralInRange<int>(0, 7) == 0)
    return in.ConsumeRandomLengthString(16);
  size_t index = in.ConsumeIntegralInRange<size_t>(0, properties.size() - 1);
  auto it = properties.begin();
  std::advance(it, index);
  return it.key();
}

// The dispatcher's last-resort answer starts its `error` so; a tool's own
// error may quote an argument, which the fuzzer fills with any text.
void check(const Json& message, const std::string& tool) {
  if (!message.contains("result")) return;  // refused by the router: a JSON-RPC error
  const Json& content = message["result"].value("content", Json::array());
  std::string text = content.empty() ? "" : content[0].value("text", "");
  Json value = Json::parse(text, nullptr, false);
  if (!value.is_object()) std::abort();
  const Json& error = value.value("error", Json());
  if (error.is_string() && error.get<std::string>().starts_with("Internal error in " + tool))
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Harness* harness = new Harness();
  if (harness->tools.empty()) return 0;
  FuzzedDataProvider in(data, size);
  const registry::ToolSpec& spec =
      *harness->tools[in.ConsumeIntegralInRange<size_t>(0, harness->tools.size() - 1)];
  Json args = in.ConsumeBool() ? hermes::testing::required_arguments(spec) : Json::object();
  const Json& properties = spec.input_schema.value("properties", Json::object());
  for (int n = in.ConsumeIntegralInRange<int>(1, 4); n > 0; --n) {
    std::string key = fuzzed_key(in, properties);
    args[key] = fuzzed_value(in);
  }
  Json params = {{"name", spec.name}, {"arguments", std::move(args)}};
  auto prepared = harness->router->prepare_call(1, params);
  if (auto* reply = std::get_if<mcp::Reply>(&prepared)) return check(reply->message, spec.name), 0;
  auto reply = harness->router->run_call(
      1, std::get<mcp::PreparedCall>(prepared),
      mcp::CallEnv{harness->session, harness->client, std::stop_token(), nullptr, "fuzz"});
  if (reply) check(reply->message, spec.name);
  return 0;
}
