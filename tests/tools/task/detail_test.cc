// SPDX-License-Identifier: MIT
// hermes_task_detail: lookup order, live export, id validation.
#include "tools/task/task_fixture.h"
#include "tools/task/task_tools.h"

#include <gtest/gtest.h>

namespace hermes::task {
namespace {

using testing::TaskHome;

const std::string kSid = "20260811_115247_084e47";

class TaskDetail : public ::testing::Test {
 protected:
  Json detail(const Json& args) { return home_.call(specs_, "hermes_task_detail", args); }
  Json run_task() {
    home_.env().set("STUB_ANSWER", "full answer text");
    home_.env().set("STUB_SESSION", kSid);
    home_.env().set("STUB_EXPORT", R"({"id": ")" + kSid + R"(", "messages": []})");
    return home_.call(specs_, "hermes_task", {{"prompt", "hi"}});
  }
  TaskHome home_;
  std::vector<registry::ToolSpec> specs_ = task_tool_specs(testing::real_service());
};

TEST_F(TaskDetail, ByTaskIdFromTheCache) {
  Json task = run_task();
  ASSERT_EQ(task["ok"], true) << task.dump();
  Json out = detail({{"task_id", task["task_id"]}});
  EXPECT_EQ(out["ok"], true);
  EXPECT_EQ(out["cached"], true);
  EXPECT_EQ(out["task_id"], task["task_id"]);
  EXPECT_EQ(out["session_id"], kSid);
  EXPECT_EQ(out["provider"], "gemini");
  EXPECT_EQ(out["output_mode"], "digest");
  EXPECT_EQ(out["result"], "full answer text\n");
  EXPECT_EQ(out["tool_calls"], Json::array());
  EXPECT_EQ(out["exit_code"], 0);
  EXPECT_EQ(detail({{"task_id", task["task_id"]}, {"max_bytes", 4}})["result"], "full");
}

TEST_F(TaskDetail, BySessionIdScansTheCache) {
  Json task = run_task();
  Json out = detail({{"session_id", kSid}});
  EXPECT_EQ(out["cached"], true);
  EXPECT_EQ(out["task_id"], task["task_id"]);
}

TEST_F(TaskDetail, LiveExportWhenNothingIsCached) {
  home_.env().set("STUB_EXPORT", Json::parse(R"({"id": ")" + kSid + R"(", "model": "gemini-3-flash",
      "billing_provider": "gemini", "messages": [{"role": "assistant", "tool_calls": [
      {"id": "c1", "function": {"name": "terminal", "arguments": "{\"command\":\"ls\"}"}}]},
      {"role": "tool", "tool_call_id": "c1", "content": "a b"}]})")
                                     .dump());
  Json out = detail({{"session_id", kSid}});
  ASSERT_EQ(out["ok"], true) << out.dump();
  EXPECT_EQ(out["cached"], false);
  EXPECT_EQ(out["task_id"], "ses_" + kSid);
  EXPECT_EQ(out["provider"], "gemini");
  EXPECT_EQ(out["model"], "gemini-3-flash");
  EXPECT_TRUE(out["result"].is_null());
  EXPECT_EQ(out["tool_calls"][0]["result"], "a b");
  EXPECT_TRUE(out["duration_ms"].is_null());
  // The export was cached: the next lookup needs no agent.
  home_.env().set("STUB_EXPORT_EXIT", "1");
  EXPECT_EQ(detail({{"session_id", kSid}})["cached"], true);
}

TEST_F(TaskDetail, NotFoundAndExportFailure) {
  Json missing = detail({{"task_id", "1723380000000_abc123"}});
  EXPECT_EQ(
      missing,
      Json::parse(
          R"({"ok":false,"error":"not_found","error_detail":"no cached run matches task_id/session_id"})"));
  home_.env().set("STUB_EXPORT", "garbage");
  Json garbage = detail({{"session_id", kSid}});
  EXPECT_EQ(garbage["error"], "not_found");
  EXPECT_NE(garbage["error_detail"].get<std::string>().find("session export failed"),
            std::string::npos);
  home_.env().set("STUB_EXPORT_EXIT", "1");
  EXPECT_EQ(detail({{"session_id", kSid}})["error_detail"].get<std::string>().substr(0, 29),
            "session export failed: exit=1");
}

TEST_F(TaskDetail, IdsAreValidatedBeforeBecomingPaths) {
  EXPECT_EQ(detail(Json::object())["error_detail"], "task_id or session_id is required");
  std::string before = home_.read_auth();
  for (const char* id : {"../auth", "../../home/auth", "a/b", "x.json"}) {
    EXPECT_EQ(detail({{"task_id", id}})["error"], "invalid_args") << id;
    EXPECT_EQ(detail({{"session_id", id}})["error"], "invalid_args") << id;
  }
  EXPECT_EQ(home_.read_auth(), before);
}

TEST_F(TaskDetail, CorruptCacheFileIsSkipped) {
  home_.dir().write("home/hermes-task-cache/1_bad.json", "{oops");
  EXPECT_EQ(detail({{"task_id", "1_bad"}})["error"], "not_found");
  EXPECT_EQ(home_.dir().read("home/hermes-task-cache/1_bad.json"), "{oops");
}

}  // namespace
}  // namespace hermes::task
