// SPDX-License-Identifier: MIT
// hermes_task end to end against the stub agent: success shapes, output
// modes and caps, session id and export handling, argv, cwd and the cache.
#include "tools/task/task_fixture.h"
#include "tools/task/task_tools.h"

#include <gtest/gtest.h>

#include <regex>

namespace hermes::task {
namespace {

using testing::TaskHome;

const std::string kSid = "20260811_115247_084e47";

std::string export_line() {
  return Json::parse(R"({"id": ")" + kSid +
                     R"(", "tool_call_count": 2, "api_call_count": 3, "message_count": 5,
    "messages": [{"role": "assistant", "tool_calls": [
      {"id": "c1", "type": "function", "function": {"name": "search_files", "arguments": "{\"q\":1}"}},
      {"id": "c2", "type": "function", "function": {"name": "terminal", "arguments": "{}"}}]},
      {"role": "tool", "tool_call_id": "c1", "content": "found"}]})")
      .dump();
}

class HermesTask : public ::testing::Test {
 protected:
  Json call(const Json& args) { return home_.call(specs_, "hermes_task", args); }
  Json cached(const std::string& task_id) {
    return Json::parse(home_.dir().read("home/hermes-task-cache/" + task_id + ".json"));
  }
  TaskHome home_;
  std::vector<registry::ToolSpec> specs_ = task_tool_specs(testing::real_service());
};

TEST_F(HermesTask, DigestSuccessWithExport) {
  home_.env().set("STUB_ANSWER", "The answer.");
  home_.env().set("STUB_SESSION", kSid);
  home_.env().set("STUB_EXPORT", export_line());
  home_.env().set("STUB_ARGV_FILE", home_.dir().file("argv"));
  Json out = call({{"prompt", "  summarize the notes  "}});
  ASSERT_EQ(out["ok"], true) << out.dump();
  EXPECT_EQ(out["provider"], "gemini");
  EXPECT_EQ(out["model"], "gemini-3.1-flash-lite");
  EXPECT_TRUE(
      std::regex_match(out["task_id"].get<std::string>(), std::regex("[0-9]{13}_[0-9a-z]{6}")));
  EXPECT_EQ(out["output_mode"], "digest");
  EXPECT_EQ(out["result"], "The answer.\n");
  EXPECT_EQ(out["truncated"], false);
  EXPECT_EQ(out["exit_code"], 0);
  EXPECT_EQ(out["session_id"], kSid);
  EXPECT_EQ(out["digest"], Json::parse(R"({"tool_call_count": 2, "api_call_count": 3,
      "message_count": 5, "tools_used": ["search_files", "terminal"]})"));
  EXPECT_FALSE(out.contains("tool_calls"));
  std::vector<std::string> keys;
  for (auto& [k, v] : out.items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"ok", "provider", "model", "task_id", "output_mode",
                                            "result", "truncated", "exit_code", "duration_ms",
                                            "session_id", "digest"}));
  EXPECT_EQ(home_.dir().read("argv"),
            "chat\n-q\nsummarize the notes\n--provider\ngemini\n-m\ngemini-3.1-flash-lite\n"
            "--max-turns\n500\n-Q\n--accept-hooks\n--ignore-user-config\n--pass-session-id\n");
  Json record = cached(out["task_id"]);
  EXPECT_EQ(record["result"], "The answer.\n");
  EXPECT_EQ(record["session_id"], kSid);
  EXPECT_EQ(record["prompt_len"], 19);
  EXPECT_EQ(record["tool_calls"].size(), 2u);
}

TEST_F(HermesTask, FullModeReturnsToolCalls) {
  home_.env().set("STUB_SESSION", kSid);
  home_.env().set("STUB_EXPORT", export_line());
  Json out = call({{"prompt", "hi"}, {"output_mode", "full"}, {"toolsets", "web,file"}});
  ASSERT_EQ(out["ok"], true) << out.dump();
  EXPECT_EQ(out["output_mode"], "full");
  EXPECT_FALSE(out.contains("digest"));
  ASSERT_EQ(out["tool_calls"].size(), 2u);
  EXPECT_EQ(
      out["tool_calls"][0],
      Json::parse(R"({"id":"c1","name":"search_files","arguments":{"q":1},"result":"found"})"));
}

TEST_F(HermesTask, DigestModeTrimsAt8KiB) {
  home_.env().set("STUB_ANSWER_BYTES", "10000");
  Json out = call({{"prompt", "hi"}});
  ASSERT_EQ(out["ok"], true) << out.dump();
  EXPECT_EQ(out["result"].get<std::string>().size(), 8192u);
  EXPECT_EQ(out["truncated"], true);
  EXPECT_EQ(cached(out["task_id"])["result"].get<std::string>().size(), 10000u);
}

TEST_F(HermesTask, TrimNeverSplitsACodePoint) {
  std::string euros;
  for (int i = 0; i < 3000; ++i) euros += "\xe2\x82\xac";
  home_.env().set("STUB_ANSWER", euros);
  Json out = call({{"prompt", "hi"}});
  ASSERT_EQ(out["ok"], true);
  EXPECT_EQ(out["result"].get<std::string>(), euros.substr(0, 8190));
}

TEST_F(HermesTask, FullModeCapsAt200KiB) {
  home_.env().set("STUB_ANSWER_BYTES", "250000");
  Json out = call({{"prompt", "hi"}, {"output_mode", "full"}});
  ASSERT_EQ(out["ok"], true);
  EXPECT_EQ(out["result"].get<std::string>().size(), 204800u);
  EXPECT_EQ(out["truncated"], true);
  EXPECT_FALSE(out.contains("tool_calls"));  // no session id, nothing to extract
}

TEST_F(HermesTask, SessionIdIsNeverTakenFromTheAnswer) {
  home_.env().set("STUB_ANSWER", "session_id: 20990101_000000_abcdef");
  Json out = call({{"prompt", "hi"}});
  ASSERT_EQ(out["ok"], true);
  EXPECT_TRUE(out["session_id"].is_null());
  EXPECT_TRUE(out["digest"].is_null());
}

TEST_F(HermesTask, SuccessWhoseSessionIdContains429IsNotRateLimited) {
  home_.env().set("STUB_SESSION", "20260429_115247_a429bc");
  Json out = call({{"prompt", "hi"}});
  EXPECT_EQ(out["ok"], true) << out.dump();
  EXPECT_EQ(home_.read_auth().find("exhausted"), std::string::npos);
}

TEST_F(HermesTask, ExportGarbageKeepsTheTask) {
  home_.env().set("STUB_SESSION", kSid);
  home_.env().set("STUB_EXPORT", "Traceback (most recent call last):\n  oops");
  Json out = call({{"prompt", "hi"}, {"output_mode", "full"}});
  ASSERT_EQ(out["ok"], true);
  EXPECT_EQ(out["session_id"], kSid);
  EXPECT_FALSE(out.contains("tool_calls"));
}

TEST_F(HermesTask, ExportFailureKeepsTheTask) {
  home_.env().set("STUB_SESSION", kSid);
  home_.env().set("STUB_EXPORT_EXIT", "1");
  Json out = call({{"prompt", "hi"}});
  ASSERT_EQ(out["ok"], true);
  EXPECT_TRUE(out["digest"].is_null());
}

TEST_F(HermesTask, CacheWriteFailureIsTolerated) {
  // A cache dir below a regular file cannot be created, even by root.
  home_.config().set_override("task_server.cache_dir", home_.auth_path() + "/cache");
  std::string auth_before = home_.read_auth();
  Json out = call({{"prompt", "hi"}});
  EXPECT_EQ(out["ok"], true) << out.dump();
  EXPECT_EQ(home_.read_auth(), auth_before);
}

TEST_F(HermesTask, AllowedCwdRunsThereByRealPath) {
  home_.dir().write("project/sub/.keep", "");
  home_.env().set("STUB_PWD_FILE", home_.dir().file("pwd"));
  home_.env().set("STUB_ARGV_FILE", home_.dir().file("argv"));
  home_.env().set("STUB_HELP", "  --in DIR   change directory first");
  Json out = call({{"prompt", "hi"}, {"cwd", home_.project() + "/sub/../sub"}});
  ASSERT_EQ(out["ok"], true) << out.dump();
  std::string real = home_.project() + "/sub";
  EXPECT_EQ(home_.dir().read("pwd"), real + "\n" + real + "\n");
  EXPECT_NE(home_.dir().read("argv").find("--in\n" + real + "\n--pass-session-id"),
            std::string::npos);
}

TEST_F(HermesTask, InFlagOmittedWhenTheAgentLacksIt) {
  home_.env().set("STUB_ARGV_FILE", home_.dir().file("argv"));
  Json out = call({{"prompt", "hi"}, {"cwd", home_.project()}});
  ASSERT_EQ(out["ok"], true) << out.dump();
  EXPECT_EQ(home_.dir().read("argv").find("--in"), std::string::npos);
}

TEST_F(HermesTask, PromptStartingWithDashIsNotAnOption) {
  home_.env().set("STUB_ARGV_FILE", home_.dir().file("argv"));
  ASSERT_EQ(call({{"prompt", "-v explain"}})["ok"], true);
  EXPECT_EQ(home_.dir().read("argv").substr(0, 26), "chat\n--query=-v explain\n--");
}

TEST_F(HermesTask, ExplicitProviderUsesItsDefaultModel) {
  home_.write_auth(testing::auth_json({{"opencode-zen", testing::credential()}}));
  Json out = call({{"prompt", "hi"}, {"provider", "opencode-zen"}});
  ASSERT_EQ(out["ok"], true) << out.dump();
  EXPECT_EQ(out["model"], "deepseek-v4-flash-free");
}

}  // namespace
}  // namespace hermes::task
