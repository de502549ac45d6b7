// SPDX-License-Identifier: MIT
// Resources, templates and prompts through the router, on both eras (issue
// 37: the conformance suite's resources-*, prompts-*, caching and
// sep-2164-resource-not-found scenarios), and a tool's required client
// capabilities on the modern wire (server-stateless's -32021 checks).
#include "core/config.h"
#include "core/paths.h"
#include "mcp/router.h"

#include <gtest/gtest.h>

namespace hermes::mcp {
namespace {

class CatalogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    registry_.add_resource({.uri = "test://a",
                            .name = "a",
                            .mime_type = "text/plain",
                            .toolset = "file",
                            .read = [](const std::string& uri) {
                              return Json::array({{{"uri", uri}, {"text", "A"}}});
                            }});
    registry_.add_resource_template(
        {.uri_template = "test://t/{id}/data",
         .name = "t",
         .toolset = "file",
         .read = [](const std::string& uri, const Json& vars) {
           return Json::array({{{"uri", uri}, {"text", vars["id"].get<std::string>()}}});
         }});
    registry_.add_prompt(
        {.name = "p",
         .arguments = {{"who", "whom to greet", true}},
         .toolset = "file",
         .get = [](const Json& args, registry::ClientChannel&) {
           return Json::array(
               {{{"role", "user"},
                 {"content", {{"type", "text"}, {"text", "hi " + args.value("who", "")}}}}});
         }});
  }
  Json legacy(const std::string& method, Json params = Json::object()) {
    return router().legacy(1, method, params, nullptr, nullptr).message;
  }
  Json modern(const std::string& method, Json params = Json::object()) {
    return router().modern(1, method, params, Envelope{}, "me").message;
  }
  Router& router() {
    if (!router_) router_ = std::make_unique<Router>(registry_, services_, RouterOptions{});
    return *router_;
  }

  std::unique_ptr<Config> config_ = Config::from_yaml("");
  PathResolver paths_;
  registry::Services services_{*config_, paths_};
  registry::Registry registry_;
  std::unique_ptr<Router> router_;
};

TEST_F(CatalogTest, ListsReadsAndGetsOnBothEras) {
  Json caps = legacy("initialize")["result"]["capabilities"];
  EXPECT_TRUE(caps.contains("resources") && caps.contains("prompts") &&
              caps.contains("completions"))
      << caps;
  EXPECT_EQ(legacy("resources/list")["result"]["resources"][0]["uri"], "test://a");
  EXPECT_EQ(legacy("resources/templates/list")["result"]["resourceTemplates"][0]["uriTemplate"],
            "test://t/{id}/data");
  EXPECT_EQ(
      legacy("resources/read", {{"uri", "test://t/42/data"}})["result"]["contents"][0]["text"],
      "42");
  Json got = legacy("prompts/get", {{"name", "p"}, {"arguments", {{"who", "you"}}}});
  EXPECT_EQ(got["result"]["messages"][0]["content"]["text"], "hi you");
  EXPECT_EQ(legacy("prompts/list")["result"]["prompts"][0]["arguments"][0]["required"], true);
  EXPECT_EQ(legacy("resources/subscribe", {{"uri", "test://a"}})["result"], Json::object());
  EXPECT_EQ(legacy("completion/complete")["result"]["completion"]["values"], Json::array());

  Json discovered = modern("server/discover")["result"]["capabilities"];
  EXPECT_TRUE(discovered.contains("prompts"));
  EXPECT_FALSE(discovered["resources"].contains("subscribe")) << "no resources/subscribe there";
  EXPECT_TRUE(caps["resources"]["subscribe"].get<bool>());
  Json read = modern("resources/read", {{"uri", "test://a"}})["result"];
  EXPECT_TRUE(read.contains("ttlMs") && read.contains("cacheScope")) << read;
  // SEP-2549: every list result carries its caching hints on the modern wire.
  for (const char* list : {"resources/list", "resources/templates/list", "prompts/list"}) {
    Json result = modern(list)["result"];
    EXPECT_TRUE(result.contains("ttlMs") && result.contains("cacheScope")) << list;
    EXPECT_EQ(result["resultType"], "complete") << list;
  }
  // Removed from the modern era: not found there.
  EXPECT_EQ(modern("resources/subscribe", {{"uri", "test://a"}})["error"]["code"], -32601);
}

// A resource that does not exist: -32002 before 2026-07-28, -32602 since
// (SEP-2164), with the URI in the error's data either way.
TEST_F(CatalogTest, UnknownResourceIsNamedInTheErrorOfEachEra) {
  Json old = legacy("resources/read", {{"uri", "test://none"}});
  EXPECT_EQ(old["error"]["code"], -32002);
  EXPECT_EQ(old["error"]["data"]["uri"], "test://none");
  Json now = modern("resources/read", {{"uri", "test://none"}});
  EXPECT_EQ(now["error"]["code"], -32602);
  EXPECT_EQ(now["error"]["data"]["uri"], "test://none");
  EXPECT_EQ(legacy("prompts/get", {{"name", "nope"}})["error"]["code"], -32602);
}

TEST_F(CatalogTest, NothingOfferedWhenTheToolsetIsOff) {
  registry_.enable_toolsets({"terminal"});
  Json caps = legacy("initialize")["result"]["capabilities"];
  EXPECT_FALSE(caps.contains("resources") || caps.contains("prompts") ||
               caps.contains("completions"))
      << caps;
  EXPECT_EQ(legacy("resources/list")["error"]["code"], -32601);
  EXPECT_EQ(modern("prompts/list")["error"]["code"], -32601);
}

// A tool that cannot do without `sampling` is refused on the modern wire
// when the request did not declare it: -32021, HTTP 400, naming it.
TEST_F(CatalogTest, ModernCallWithoutARequiredClientCapabilityIsRefused) {
  registry_.add(registry::ToolSpec{
      .name = "asks",
      .toolset = "file",
      .input_schema = {{"type", "object"}},
      .run = [](const Json&, registry::CallContext&) { return registry::ToolReply{Json("ok")}; },
      .client_capabilities = {{"sampling", Json::object()}}});
  Envelope without;
  auto refused = router().prepare_call(1, {{"name", "asks"}}, &without);
  ASSERT_TRUE(std::holds_alternative<Reply>(refused));
  const Reply& reply = std::get<Reply>(refused);
  EXPECT_EQ(reply.http_status, 400);
  EXPECT_EQ(reply.message["error"]["code"], -32021);
  EXPECT_EQ(reply.message["error"]["data"]["requiredCapabilities"],
            Json::parse(R"({"sampling":{}})"));
  Envelope with;
  with.client_capabilities = {{"sampling", Json::object()}};
  EXPECT_TRUE(
      std::holds_alternative<PreparedCall>(router().prepare_call(1, {{"name", "asks"}}, &with)));
  EXPECT_TRUE(std::holds_alternative<PreparedCall>(router().prepare_call(1, {{"name", "asks"}})))
      << "the legacy wire declares capabilities once, at initialize";
  // A capability inside another: an extension.
  registry_.add(registry::ToolSpec{
      .name = "task_only",
      .toolset = "file",
      .input_schema = {{"type", "object"}},
      .run = [](const Json&, registry::CallContext&) { return registry::ToolReply{Json("ok")}; },
      .client_capabilities = {{"extensions", {{"x/tasks", Json::object()}}}}});
  with.client_capabilities["extensions"] = {{"x/other", Json::object()}};
  auto inner = router().prepare_call(1, {{"name", "task_only"}}, &with);
  ASSERT_TRUE(std::holds_alternative<Reply>(inner));
  EXPECT_EQ(std::get<Reply>(inner).message["error"]["data"]["requiredCapabilities"],
            Json::parse(R"({"extensions":{"x/tasks":{}}})"));
}

}  // namespace
}  // namespace hermes::mcp
