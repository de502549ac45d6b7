// SPDX-License-Identifier: MIT
#include "registry/dispatcher.h"

#include "core/config.h"
#include "core/paths.h"
#include "registry/client_channel.h"
#include "registry/session.h"
#include "registry/typed_tool.h"
#include "testutil/status_matchers.h"

#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>

namespace hermes::registry {
namespace {

struct Counter : SessionState {
  int resets = 0;
  void on_other_tool_call() override { ++resets; }
};

// One session of a registry the test fills, as the server would call it.
struct World {
  std::unique_ptr<Config> config = Config::from_yaml("");
  PathResolver paths;
  Services services{*config, paths};
  Registry registry;
  Dispatcher dispatcher{registry, services};
  Session session{"t"};
  NullClientChannel client;
  CallContext ctx{session, services, client, dispatcher, {}, Json()};
  ToolCallResult call(const std::string& name, const Json& args) {
    return dispatcher.call(*dispatcher.find(name), args, ctx);
  }
};

TEST(Dispatcher, ResetsLoopCountersOnOtherToolsOnly) {
  World w;
  Registry& registry = w.registry;
  auto noop = [](const Json&, CallContext&) { return ToolReply{Json::object()}; };
  registry.add({.name = "read_file", .toolset = "file", .run = noop, .keeps_loop_counters = true});
  registry.add({.name = "write_file", .toolset = "file", .run = noop});
  registry.add({.name = "terminal", .toolset = "terminal", .run = noop});
  registry.enable_toolsets({"file"});
  w.session.state<Counter>();
  w.call("read_file", Json::object());
  EXPECT_EQ(w.session.state<Counter>().resets, 0);
  w.call("write_file", Json::object());
  EXPECT_EQ(w.session.state<Counter>().resets, 1);
  EXPECT_EQ(w.dispatcher.find("terminal"), nullptr);  // toolset not enabled
}

// A typo never falls open to every tool, and a tool left out
// by --toolsets says so instead of "Unknown tool".
TEST(Registry, ToolsetsFailClosedAndSayWhatIsMissing) {
  auto selected = Registry::select_toolsets({"file", "terminal"});
  ASSERT_TRUE(selected);
  EXPECT_EQ(*selected, (std::set<std::string>{"file", "terminal"}));
  EXPECT_EQ(*Registry::select_toolsets({"file", "all"}),
            (std::set<std::string>{"code", "file", "task", "terminal", "web"}))
      << "all: every toolset but the opt-in ones";
  auto typo = Registry::select_toolsets({"flie"});
  ASSERT_FALSE(typo);
  EXPECT_EQ(typo.error().message,
            "unknown toolset 'flie' (valid: all, code, conformance, file, task, terminal, web)");
  World w;
  auto noop = [](const Json&, CallContext&) { return ToolReply{Json::object()}; };
  w.registry.add({.name = "read_file", .toolset = "file", .run = noop});
  w.registry.add({.name = "terminal", .toolset = "terminal", .run = noop});
  w.registry.add(
      {.name = "web_search", .toolset = "web", .run = noop, .is_available = [](const Services&) {
         return false;
       }});
  w.registry.enable_toolsets({"file", "web"});
  EXPECT_EQ(w.registry.why_missing("terminal", w.services).message,
            "Tool 'terminal' is not enabled (--toolsets file,web; it is in toolset 'terminal')");
  EXPECT_EQ(w.registry.why_missing("web_search", w.services).code, ErrorCode::kUnavailable);
  EXPECT_EQ(w.registry.why_missing("frob", w.services).message, "Unknown tool: frob");
}

// The conformance fixtures are never on by default nor part of
// `all`; naming them adds them.
TEST(Registry, ConformanceToolsetOnlyWhenNamed) {
  EXPECT_EQ(*Registry::select_toolsets({"all", "conformance"}),
            (std::set<std::string>{"code", "conformance", "file", "task", "terminal", "web"}));
  auto noop = [](const Json&, CallContext&) { return ToolReply{Json::object()}; };
  for (const std::vector<std::string>& names :
       {std::vector<std::string>{}, std::vector<std::string>{"all"}}) {
    World w;
    w.registry.add({.name = "read_file", .toolset = "file", .run = noop});
    w.registry.add({.name = "test_simple_text", .toolset = "conformance", .run = noop});
    w.registry.enable_toolsets(*Registry::select_toolsets(names));
    EXPECT_NE(w.dispatcher.find("read_file"), nullptr);
    EXPECT_EQ(w.dispatcher.find("test_simple_text"), nullptr) << names.size();
    if (names.empty()) {
      EXPECT_EQ(w.registry.why_missing("test_simple_text", w.services).message,
                "Tool 'test_simple_text' is not enabled (--toolsets all; it is in toolset "
                "'conformance')");
    }
  }
}

// A typed tool: its parse error, its handler's Error, and an output that is
// a failure all become `isError` with their codes; a plain output does not.
struct EchoParams {
  int n = 0;
};
struct EchoOutput {
  int n = 0;
  Error refusal;  // a failure when its message is set
};

Result<EchoParams> parse_echo(const Json& args) {
  auto n = args.find("n");
  if (n == args.end() || !n->is_number_integer()) return Error::InvalidArgument("n is required");
  return EchoParams{n->get<int>()};
}
Result<EchoOutput> run_echo(const EchoParams& p, CallContext&) {
  if (p.n < 0) return Error::NotFound("no such n");
  if (p.n == 0) return EchoOutput{0, Error::PermissionDenied("zero refused")};
  return EchoOutput{p.n, {}};
}
Json render_echo(const EchoOutput& out) {
  if (!out.refusal.message.empty()) return Json{{"refused", out.refusal.message}};
  return Json{{"n", out.n}};
}
const Error* echo_failure(const EchoOutput& out) {
  return out.refusal.message.empty() ? nullptr : &out.refusal;
}

TEST(TypedTool, IsErrorAndCodeComeFromTheTypedResult) {
  World w;
  w.registry.add({.name = "echo",
                  .toolset = "file",
                  .run = typed_entry(TypedTool<EchoParams, EchoOutput>{.parse = parse_echo,
                                                                       .handler = run_echo,
                                                                       .render = render_echo,
                                                                       .failure = echo_failure})});
  ToolCallResult ok = w.call("echo", Json{{"n", 3}});
  EXPECT_THAT(ok, testing::IsOk());
  EXPECT_EQ(ok.text, R"({"n":3})");
  ToolCallResult bad = w.call("echo", Json::object());
  EXPECT_THAT(bad, testing::IsError(ErrorCode::kInvalidArgument));
  EXPECT_EQ(bad.text, R"({"error":"n is required"})");
  EXPECT_THAT(w.call("echo", Json{{"n", -1}}), testing::IsError(ErrorCode::kNotFound));
  ToolCallResult refused = w.call("echo", Json{{"n", 0}});
  EXPECT_THAT(refused, testing::IsError(ErrorCode::kPermissionDenied));
  EXPECT_EQ(refused.text, R"({"refused":"zero refused"})");
}

// The reply's flag is the only source of isError: keys that read like a
// failure (`error`, `success: false`, `status: "error"`) decide nothing.
TEST(Dispatcher, IsErrorIsTheRepliesFlagNotItsKeys) {
  World w;
  Json looks_failed = Json::parse(R"({"error":"x","success":false,"status":"error"})");
  w.registry.add({.name = "data", .toolset = "file", .run = [&](const Json&, CallContext&) {
                    return ToolReply{looks_failed};
                  }});
  w.registry.add({.name = "quiet", .toolset = "file", .run = [](const Json&, CallContext&) {
                    return ToolReply{Json::object(), true, ErrorCode::kConflict};
                  }});
  ToolCallResult data = w.call("data", Json::object());
  EXPECT_THAT(data, testing::IsOk());
  EXPECT_EQ(data.value, looks_failed);
  ToolCallResult quiet = w.call("quiet", Json::object());
  EXPECT_THAT(quiet, testing::IsError(ErrorCode::kConflict));
  EXPECT_EQ(quiet.text, "{}");
}

TEST(TypedTool, AnEscapedExceptionIsAnInternalFailure) {
  World w;
  w.registry.add(
      {.name = "boom", .toolset = "file", .run = [](const Json&, CallContext&) -> ToolReply {
         throw std::runtime_error("bad");
       }});
  ToolCallResult r = w.call("boom", Json::object());
  EXPECT_THAT(r, testing::IsError(ErrorCode::kInternal));
  EXPECT_EQ(r.text, R"({"error":"Internal error in boom: bad"})");
}

}  // namespace
}  // namespace hermes::registry
