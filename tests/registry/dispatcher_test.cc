// SPDX-License-Identifier: MIT
#include "registry/dispatcher.h"

#include <gtest/gtest.h>

#include "core/config.h"
#include "core/paths.h"
#include "registry/client_channel.h"
#include "registry/session.h"

namespace hermes {
namespace {

TEST(IsErrorResult, FollowsTheDecisionsRule) {
  EXPECT_TRUE(is_error_result(Json::parse(R"({"error":"x"})")));
  EXPECT_FALSE(is_error_result(Json::parse(R"({"output":"","exit_code":1,"error":null})")));
  EXPECT_FALSE(is_error_result(Json::parse(R"({"error":""})")));
  EXPECT_TRUE(is_error_result(Json::parse(R"({"success":false,"note":"n"})")));
  for (const char* s : {"blocked", "pending_approval", "error", "timeout", "interrupted"}) {
    EXPECT_TRUE(is_error_result({{"status", s}})) << s;
  }
  EXPECT_FALSE(is_error_result(Json::parse(R"({"status":"unchanged"})")));
}

struct Counter : SessionState {
  int resets = 0;
  void on_other_tool_call() override { ++resets; }
};

TEST(Dispatcher, ResetsLoopCountersOnOtherToolsOnly) {
  auto config = Config::from_yaml("");
  PathResolver paths;
  Services services{*config, paths};
  Registry registry;
  auto noop = [](const Json&, CallContext&) { return Json::object(); };
  registry.add({.name = "read_file", .toolset = "file", .handler = noop});
  registry.add({.name = "write_file", .toolset = "file", .handler = noop});
  registry.add({.name = "terminal", .toolset = "terminal", .handler = noop});
  registry.enable_toolsets({"file"});
  Dispatcher dispatcher(registry, services);
  Session session("t");
  NullClientChannel client;
  CallContext ctx{session, services, client, dispatcher, {}, Json()};
  session.state<Counter>();
  dispatcher.call(*dispatcher.find("read_file"), Json::object(), ctx);
  EXPECT_EQ(session.state<Counter>().resets, 0);
  dispatcher.call(*dispatcher.find("write_file"), Json::object(), ctx);
  EXPECT_EQ(session.state<Counter>().resets, 1);
  EXPECT_EQ(dispatcher.find("terminal"), nullptr);  // toolset not enabled
}

}  // namespace
}  // namespace hermes
