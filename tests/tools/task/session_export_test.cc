// SPDX-License-Identifier: MIT
#include "tools/task/session_export.h"

#include <gtest/gtest.h>

namespace hermes::task {
namespace {

const std::string kSid = "20260811_115247_084e47";

std::string session_line(const Json& messages, const std::string& counters = "") {
  Json session = Json::parse(R"({"id": ")" + kSid + R"(", "model": "gemini-3.1-flash-lite",
      "billing_provider": "gemini")" +
                             counters + "}");
  session["messages"] = messages;
  return session.dump();
}

Json call(const std::string& id, const std::string& name, const std::string& args) {
  return Json{
      {"id", id}, {"type", "function"}, {"function", {{"name", name}, {"arguments", args}}}};
}

Json messages() {
  return Json::array({
      {{"role", "user"}, {"content", "go"}},
      {{"role", "assistant"},
       {"content", ""},
       {"tool_calls", Json::array({call("c1", "search_files", R"({"pattern":"x"})"),
                                   call("c2", "terminal", "not json")})}},
      {{"role", "tool"}, {"tool_call_id", "c1"}, {"content", "{\"matches\":1}"}},
      {{"role", "tool"}, {"tool_call_id", "c2"}, {"content", ""}},
      {{"role", "assistant"}, {"tool_calls", Json::array({call("c3", "search_files", "{}")})}},
  });
}

TEST(ParseExport, PairsCallsWithResultsInOrder) {
  auto out = parse_session_export("noise line\n" + session_line(messages()) + "\n", kSid, {});
  ASSERT_TRUE(out) << out.error().message;
  ASSERT_EQ(out->tool_calls.size(), 3u);
  EXPECT_EQ(out->tool_calls[0], Json::parse(R"({"id":"c1","name":"search_files",
      "arguments":{"pattern":"x"},"result":"{\"matches\":1}"})"));
  EXPECT_EQ(out->tool_calls[1]["arguments"], "not json");
  EXPECT_TRUE(out->tool_calls[1]["result"].is_null());  // empty content
  EXPECT_TRUE(out->tool_calls[2]["result"].is_null());  // unmatched
  EXPECT_EQ(out->tools_used, (std::vector<std::string>{"search_files", "terminal"}));
  EXPECT_EQ(out->provider, "gemini");
  EXPECT_FALSE(out->tool_call_count);
}

TEST(ParseExport, SessionCountersAreKept) {
  auto out = parse_session_export(
      session_line(messages(),
                   R"(, "tool_call_count": 7, "api_call_count": 3, "message_count": 9)"),
      kSid, {});
  ASSERT_TRUE(out);
  EXPECT_EQ(out->tool_call_count, 7);
  EXPECT_EQ(out->api_call_count, 3);
  EXPECT_EQ(out->message_count, 9);
}

TEST(ParseExport, CapsCountArgsAndResults) {
  Json msgs = Json::array();
  Json calls = Json::array();
  for (int i = 0; i < 60; ++i)
    calls.push_back(call("c" + std::to_string(i), "t", std::string(3000, 'a')));
  msgs.push_back({{"role", "assistant"}, {"tool_calls", calls}});
  msgs.push_back({{"role", "tool"}, {"tool_call_id", "c0"}, {"content", std::string(9000, 'r')}});
  auto out = parse_session_export(session_line(msgs), kSid, {2048, 8192, 50});
  ASSERT_TRUE(out);
  EXPECT_EQ(out->tool_calls.size(), 50u);
  EXPECT_EQ(out->tool_calls[0]["arguments"].get<std::string>(),
            std::string(2048, 'a') + "... [truncated]");
  EXPECT_EQ(out->tool_calls[0]["result"].get<std::string>(),
            std::string(8192, 'r') + "... [truncated]");
}

TEST(ParseExport, GarbageIsAnError) {
  auto out = parse_session_export("Traceback (most recent call last):\n{not json\n", kSid, {});
  ASSERT_FALSE(out);
  EXPECT_NE(out.error().message.find("no session object"), std::string::npos);
}

TEST(CapText, CutsOnCodePointBoundary) {
  EXPECT_EQ(cap_text("\xe2\x82\xac\xe2\x82\xac", 4), "\xe2\x82\xac... [truncated]");
  EXPECT_EQ(cap_text("abc", 3), "abc");
}

}  // namespace
}  // namespace hermes::task
