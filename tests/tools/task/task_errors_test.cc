// SPDX-License-Identifier: MIT
// hermes_task's error codes, in the reference's check order, and what each
// leaves behind in HERMES_HOME.
#include "tools/task/fake_runner.h"
#include "tools/task/iso_time.h"
#include "tools/task/task_fixture.h"
#include "tools/task/task_tools.h"

#include <gtest/gtest.h>

#include <future>

namespace hermes::task {
namespace {

using testing::auth_json;
using testing::credential;
using testing::FakeRunner;
using testing::TaskHome;

class TaskErrors : public ::testing::Test {
 protected:
  Json call(const Json& args) { return home_.call(specs_, "hermes_task", args); }
  TaskHome home_;
  std::vector<registry::ToolSpec> specs_ = task_tool_specs(testing::real_service());
};

TEST_F(TaskErrors, EmptyOrMissingPromptIsInvalidArgs) {
  for (const Json& args : {Json::object(), Json{{"prompt", "   "}}, Json{{"prompt", nullptr}}}) {
    Json out = call(args);
    EXPECT_EQ(
        out,
        Json::parse(R"({"ok":false,"error":"invalid_args","error_detail":"prompt is required"})"));
  }
  EXPECT_EQ(call({{"prompt", 42}}), Json::parse(R"({"ok":false,"error":"invalid_args",
      "error_detail":"'prompt' must be a string, got int"})"));
}

// isError and the ErrorCode come from the typed result, not from the keys.
TEST_F(TaskErrors, FailuresCarryTheirErrorCode) {
  auto reply = [&](const char* tool, const Json& args) { return home_.reply(specs_, tool, args); };
  registry::ToolReply missing = reply("hermes_task", Json::object());
  EXPECT_TRUE(missing.is_error);
  EXPECT_EQ(missing.code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(reply("hermes_task", {{"prompt", 42}}).code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(reply("hermes_task", {{"prompt", "hi"}, {"provider", "nvidia"}}).code,
            ErrorCode::kNotFound);
  EXPECT_EQ(reply("hermes_task", {{"prompt", "hi"}, {"cwd", "/nonexistent/dir"}}).code,
            ErrorCode::kPermissionDenied);
  EXPECT_EQ(reply("hermes_task_detail", Json::object()).code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(reply("hermes_models", {{"provider", "no-such-provider"}}).code, ErrorCode::kNotFound);
  registry::ToolReply telemetry = reply("hermes_telemetry", Json::object());
  EXPECT_FALSE(telemetry.is_error);
  EXPECT_EQ(telemetry.code, std::nullopt);
}

TEST_F(TaskErrors, PromptTooLongCountsCodePoints) {
  std::string prompt;
  for (int i = 0; i < 4001; ++i) prompt += "\xc3\xa9";  // 8002 bytes, 4001 chars
  Json out = call({{"prompt", prompt}});
  EXPECT_EQ(out["error"], "prompt_too_long");
  EXPECT_EQ(out["error_detail"],
            "prompt is 4001 chars, max is 4000 chars (provider-side limit). "
            "Shorten the prompt or split it into smaller tasks.");
  EXPECT_EQ(out["prompt_len"], 4001);
  EXPECT_EQ(out["max_prompt_len"], 4000);
  prompt.resize(8000);
  home_.env().set("STUB_ANSWER", "fine");
  EXPECT_EQ(call({{"prompt", prompt}})["ok"], true);
}

TEST_F(TaskErrors, MaxPromptLengthEnvOverride) {
  home_.env().set("HERMES_MAX_PROMPT_LENGTH", "5");
  EXPECT_EQ(call({{"prompt", "123456"}})["max_prompt_len"], 5);
  home_.env().set("HERMES_MAX_PROMPT_LENGTH", "-3");  // positive only
  EXPECT_EQ(call({{"prompt", "123456"}})["ok"], true);
}

TEST_F(TaskErrors, MissingCorruptOrEmptyAuthIsNoCredential) {
  std::string before = "{\"credential_pool\": {\"gemini\": [";
  home_.write_auth(before);
  Json corrupt = call({{"prompt", "hi"}});
  EXPECT_EQ(corrupt["error"], "no_credential");
  EXPECT_NE(corrupt["error_detail"].get<std::string>().find("not valid JSON"), std::string::npos);
  EXPECT_EQ(home_.read_auth(), before);
  home_.write_auth(R"({"version": 1})");
  EXPECT_EQ(call({{"prompt", "hi"}})["error"], "no_credential");
  ::unlink(home_.auth_path().c_str());
  EXPECT_EQ(call({{"prompt", "hi"}})["error"], "no_credential");
}

TEST_F(TaskErrors, AllExhaustedIsNoCredential) {
  std::string future = std::to_string(now_epoch_ms() / 1000 + 3600);
  std::string recent = std::to_string(now_epoch_ms() / 1000 - 60);
  home_.write_auth(
      auth_json({{"gemini", credential(R"("last_status": "exhausted", "last_status_at": )" +
                                       recent + R"(, "last_error_reset_at": )" + future)},
                 {"openrouter", credential(R"("last_status": "dead")")}}));
  Json out = call({{"prompt", "hi"}});
  EXPECT_EQ(
      out, Json::parse(
               R"({"ok":false,"error":"no_credential","error_detail":"all providers exhausted"})"));
}

TEST_F(TaskErrors, UnknownProviderIsProviderNotFound) {
  Json out = call({{"prompt", "hi"}, {"provider", "nvidia"}});
  EXPECT_EQ(out["error"], "provider_not_found");
  EXPECT_EQ(out["error_detail"], "provider \"nvidia\" not found in auth.json");
}

TEST_F(TaskErrors, CwdOutsideAllowlistIsRefused) {
  home_.dir().write("elsewhere/.keep", "");
  ASSERT_EQ(
      ::symlink(home_.dir().file("elsewhere").c_str(), home_.dir().file("project/link").c_str()),
      0);
  for (const std::string& cwd : {home_.dir().file("elsewhere"), home_.project() + "/../elsewhere",
                                 home_.project() + "/link", std::string("/nonexistent/dir")}) {
    Json out = call({{"prompt", "hi"}, {"cwd", cwd}});
    EXPECT_EQ(out["error"], "cwd_not_allowed") << cwd;
  }
  home_.config().set_override("task_server.cwd_allowlist", "");
  EXPECT_EQ(call({{"prompt", "hi"}, {"cwd", home_.project()}})["error"], "cwd_not_allowed");
}

TEST_F(TaskErrors, MissingAgentIsSpawnFailed) {
  home_.config().set_override("task_server.hermes_bin", home_.dir().file("bin/no-such-hermes"));
  std::string before = home_.read_auth();
  Json out = call({{"prompt", "hi"}});
  EXPECT_EQ(out["error"], "spawn_failed");
  EXPECT_EQ(out["error_detail"],
            "hermes binary \"" + home_.dir().file("bin/no-such-hermes") + "\" not found (ENOENT)");
  EXPECT_TRUE(out["exit_code"].is_null());
  EXPECT_TRUE(out.contains("duration_ms"));
  EXPECT_EQ(home_.read_auth(), before);
}

TEST_F(TaskErrors, FailedRunIsUnknownWithStderrTail) {
  home_.env().set("STUB_EXIT", "1");
  home_.env().set("STUB_STDERR", "Error: model not found");
  home_.env().set("STUB_SESSION", "20260811_115247_084e47");
  Json out = call({{"prompt", "hi"}});
  EXPECT_EQ(out["error"], "unknown");
  EXPECT_EQ(out["error_detail"], "Error: model not found");
  EXPECT_EQ(out["exit_code"], 1);
}

TEST_F(TaskErrors, ErrorDetailIsCappedAt500Bytes) {
  home_.env().set("STUB_EXIT", "2");
  home_.env().set("STUB_STDERR", std::string(2000, 'e'));
  EXPECT_EQ(call({{"prompt", "hi"}})["error_detail"].get<std::string>().size(), 500u);
}

TEST_F(TaskErrors, RateLimitMarksTheProviderExhausted) {
  home_.write_auth(
      auth_json({{"gemini", credential() + ", " + credential()}, {"openrouter", credential()}}));
  home_.env().set("STUB_EXIT", "1");
  home_.env().set("STUB_STDERR",
                  "Retrying\nError: HTTP 429: Error from provider: Rate limit exceeded");
  Json out = call({{"prompt", "hi"}});
  EXPECT_EQ(out["error"], "rate_limited");
  EXPECT_EQ(out["exit_code"], 1);
  Json auth = Json::parse(home_.read_auth());
  for (const Json& c : auth["credential_pool"]["gemini"]) {
    EXPECT_EQ(c["last_status"], "exhausted");
    EXPECT_EQ(c["last_error_message"],
              "Retrying | Error: HTTP 429: Error from provider: Rate limit exceeded");
  }
  EXPECT_FALSE(auth["credential_pool"]["openrouter"][0].contains("last_status"));
  // The next auto call skips the exhausted provider.
  home_.env().set("STUB_EXIT", "0");
  EXPECT_EQ(call({{"prompt", "hi"}})["provider"], "openrouter");
}

// Timeouts and concurrency go through a fake runner: the real 10 s minimum
// timeout is too slow for a unit test (the runner test covers the kill).
TEST(TaskWithFakeRunner, TimeoutIsReportedWithExit124) {
  TaskHome home;
  auto fake = std::make_shared<FakeRunner>([](const AgentRun&) {
    AgentResult r;
    r.timed_out = true;
    r.term_signal = 9;
    r.duration_ms = 10200;
    return r;
  });
  auto specs = task_tool_specs(std::make_shared<TaskService>(TaskDeps{fake, now_epoch_ms}));
  Json out = home.call(specs, "hermes_task", {{"prompt", "hi"}, {"timeout_seconds", 5}});
  EXPECT_EQ(out,
            Json::parse(
                R"({"ok":false,"error":"timeout","error_detail":"hermes did not finish within 10s",
                                 "exit_code":124,"duration_ms":10200})"));
}

TEST(TaskWithFakeRunner, TimeoutArgumentIsClampedAndBadTypesMeanDefault) {
  TaskHome home;
  auto fake = std::make_shared<FakeRunner>([](const AgentRun&) { return testing::ok_result("x"); });
  auto specs = task_tool_specs(std::make_shared<TaskService>(TaskDeps{fake, now_epoch_ms}));
  std::vector<std::pair<Json, int64_t>> cases = {
      {Json(), 300},      {Json(""), 300},     {Json(false), 300},
      {Json("600"), 600}, {Json(5), 10},       {Json(99999), 1800},
      {Json(12.6), 13},   {Json("soon"), 300}, {Json::array(), 300}};
  for (const auto& [value, seconds] : cases) {
    ASSERT_EQ(home.call(specs, "hermes_task", {{"prompt", "hi"}, {"timeout_seconds", value}})["ok"],
              true);
    EXPECT_EQ(fake->requests().back().timeout, std::chrono::seconds(seconds)) << value.dump();
  }
  home.call(specs, "hermes_task", {{"prompt", "hi"}});
  EXPECT_EQ(fake->requests().back().timeout, std::chrono::seconds(300));
}

TEST(TaskWithFakeRunner, SecondConcurrentCallIsBusy) {
  TaskHome home;
  std::promise<void> started, release;
  std::shared_future<void> released = release.get_future().share();
  auto fake = std::make_shared<FakeRunner>([&](const AgentRun&) {
    started.set_value();
    released.wait();
    return testing::ok_result("done");
  });
  auto specs = task_tool_specs(std::make_shared<TaskService>(TaskDeps{fake, now_epoch_ms}));
  auto first = std::async(std::launch::async, [&] {
    return home.call(specs, "hermes_task", {{"prompt", "a"}});
  });
  started.get_future().wait();
  Json second = home.call(specs, "hermes_task", {{"prompt", "b"}});
  release.set_value();
  EXPECT_EQ(
      second,
      Json::parse(
          R"({"ok":false,"error":"busy","error_detail":"another hermes_task is already running"})"));
  EXPECT_EQ(first.get()["ok"], true);
}

}  // namespace
}  // namespace hermes::task
