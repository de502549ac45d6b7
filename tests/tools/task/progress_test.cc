// SPDX-License-Identifier: MIT
// MCP progress during a running hermes_task: sent only for a progressToken,
// strictly increasing, and never after the call returned.
#include "registry/client_channel.h"
#include "tools/task/fake_runner.h"
#include "tools/task/iso_time.h"
#include "tools/task/task_fixture.h"
#include "tools/task/task_tools.h"

#include <gtest/gtest.h>

#include <future>
#include <mutex>

namespace hermes::task {
namespace {

using testing::FakeRunner;
using testing::TaskHome;

// Records notifications; the second one fulfils `second()`.
class RecordingChannel final : public registry::ClientChannel {
 public:
  bool supports_elicitation() const override { return false; }
  std::optional<Json> request(const std::string&, const Json&, std::chrono::milliseconds,
                              std::stop_token) override {
    return std::nullopt;
  }
  void notify(const std::string& method, const Json& params) override {
    std::lock_guard lock(mu_);
    sent_.push_back({method, params});
    if (sent_.size() == 2) second_.set_value();
  }
  std::vector<std::pair<std::string, Json>> sent() {
    std::lock_guard lock(mu_);
    return sent_;
  }
  std::shared_future<void> second() { return second_future_; }

 private:
  std::mutex mu_;
  std::vector<std::pair<std::string, Json>> sent_;  // mu_
  std::promise<void> second_;
  std::shared_future<void> second_future_ = second_.get_future().share();
};

TEST(TaskProgress, NotifiesWhileTheAgentRunsOnlyWithAToken) {
  TaskHome home("  progress_interval_ms: 10\n");
  RecordingChannel channel;
  auto fake = std::make_shared<FakeRunner>([&](const AgentRun&) {
    channel.second().wait();  // the run lasts until two ticks were sent
    return testing::ok_result("done");
  });
  auto specs = task_tool_specs(std::make_shared<TaskService>(TaskDeps{fake, now_epoch_ms}));
  Json out = home.call(specs, "hermes_task", {{"prompt", "hi"}, {"timeout_seconds", 60}}, channel,
                       "tok-1");
  ASSERT_EQ(out["ok"], true);
  auto sent = channel.sent();
  size_t after_return = sent.size();
  ASSERT_GE(after_return, 2u);
  EXPECT_EQ(sent[0].first, "notifications/progress");
  EXPECT_EQ(sent[0].second["progressToken"], "tok-1");
  EXPECT_EQ(sent[0].second["total"], 60);
  EXPECT_LT(sent[0].second["progress"].get<double>(), sent[1].second["progress"].get<double>());
  EXPECT_EQ(channel.sent().size(), after_return);  // the ticker stopped with the call

  RecordingChannel quiet;
  auto quick =
      std::make_shared<FakeRunner>([](const AgentRun&) { return testing::ok_result("x"); });
  auto quick_specs = task_tool_specs(std::make_shared<TaskService>(TaskDeps{quick, now_epoch_ms}));
  ASSERT_EQ(home.call(quick_specs, "hermes_task", {{"prompt", "hi"}}, quiet, Json())["ok"], true);
  EXPECT_TRUE(quiet.sent().empty());
}

}  // namespace
}  // namespace hermes::task
