// SPDX-License-Identifier: MIT
// A task's questions and failures: once a call is a task, a question parks
// it in input_required (tasks/get lists it under inputRequests) until
// tasks/update answers it; a partial answer leaves the rest pending; other
// keys, oversized answers and other principals are ignored; a cancel ends
// the wait; a question before the promotion is not the task's; the work may
// become a task at once; a work that throws ends `failed` with the
// JSON-RPC error and no result.
#include "mcp/task_store.h"

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <thread>

namespace hermes::mcp {
namespace {

using namespace std::chrono_literals;

constexpr auto kLong = std::chrono::milliseconds(10s);

// A task's field, or null when it has none yet (the predicates below run on
// every state a task passes through).
Json field(const Json& task, const char* key) {
  return task.is_object() && task.contains(key) ? task[key] : Json();
}
size_t pending(const Json& task) {
  Json requests = field(task, "inputRequests");
  return requests.is_object() ? requests.size() : 0;
}

// Polls tasks/get until `done` holds (or 10 s pass).
Json wait_for(TaskStore& store, const std::string& id, const std::function<bool(const Json&)>& done,
              const std::string& principal = "p") {
  Json last;
  for (int i = 0; i < 1000; ++i) {
    last = store.get(principal, id).value_or(Json());
    if (done(last)) return last;
    std::this_thread::sleep_for(10ms);
  }
  return last;
}

std::string promoted_id(TaskStore::Outcome outcome) {
  auto* promoted = std::get_if<TaskStore::Promoted>(&outcome);
  return promoted ? promoted->created.value("taskId", std::string()) : "";
}

Json elicit(const std::string& message) { return {{"message", message}}; }

TEST(TaskStore, AQuestionParksTheTaskUntilTasksUpdateAnswersIt) {
  TaskStore store(TaskOptions{});
  std::string id = promoted_id(store.run(
      "p", "asker",
      [](std::stop_token stop, TaskLink& link) {
        auto answer = link.ask("confirm", "elicitation/create", elicit("Sure?"), kLong, stop);
        return Json{{"answer", answer.value_or(Json("none"))}};
      },
      {}, true));
  ASSERT_FALSE(id.empty());
  Json waiting =
      wait_for(store, id, [](const Json& t) { return field(t, "status") == "input_required"; });
  ASSERT_EQ(waiting["status"], "input_required") << waiting.dump();
  EXPECT_EQ(waiting["inputRequests"]["confirm"]["method"], "elicitation/create");
  EXPECT_EQ(waiting["inputRequests"]["confirm"]["params"]["message"], "Sure?");

  EXPECT_TRUE(store.update("p", id, {{"unknown", {{"action", "accept"}}}}));  // ignored
  EXPECT_EQ(store.get("p", id)->at("status"), "input_required");
  EXPECT_TRUE(store.update("p", id, {{"confirm", {{"action", "accept"}}}}));
  EXPECT_NE(store.get("p", id)->at("status"), "input_required");  // answered: at once
  Json done = wait_for(store, id, [](const Json& t) { return field(t, "status") == "completed"; });
  ASSERT_EQ(done["status"], "completed") << done.dump();
  EXPECT_EQ(done["result"]["answer"]["action"], "accept");
  EXPECT_FALSE(done.contains("inputRequests"));
}

TEST(TaskStore, APartialAnswerLeavesTheOtherQuestionPending) {
  TaskStore store(TaskOptions{});
  std::string id = promoted_id(store.run(
      "p", "two",
      [](std::stop_token stop, TaskLink& link) {
        auto first = std::async(std::launch::async, [&] {
          return link.ask("a", "elicitation/create", elicit("A?"), kLong, stop);
        });
        auto second = link.ask("b", "elicitation/create", elicit("B?"), kLong, stop);
        return Json{{"a", first.get().has_value()}, {"b", second.has_value()}};
      },
      {}, true));
  Json both = wait_for(store, id, [](const Json& t) { return pending(t) == 2; });
  ASSERT_EQ(both["inputRequests"].size(), 2u) << both.dump();
  ASSERT_TRUE(store.update("p", id, {{"a", {{"action", "accept"}}}}));
  Json one = *store.get("p", id);  // at once: the answered question is gone before its asker wakes
  EXPECT_EQ(one["status"], "input_required");
  EXPECT_TRUE(one["inputRequests"].contains("b")) << one.dump();
  EXPECT_FALSE(one["inputRequests"].contains("a"));
  ASSERT_TRUE(store.update("p", id, {{"b", {{"action", "decline"}}}}));
  Json done = wait_for(store, id, [](const Json& t) { return field(t, "status") == "completed"; });
  EXPECT_EQ(done["result"], (Json{{"a", true}, {"b", true}}));
}

TEST(TaskStore, OnlyItsPrincipalAnswersAndOversizedAnswersAreDropped) {
  TaskStore store(TaskOptions{});
  std::string id = promoted_id(store.run(
      "p", "asker",
      [](std::stop_token stop, TaskLink& link) {
        return Json{
            {"answered", link.ask("k", "roots/list", Json::object(), kLong, stop).has_value()}};
      },
      {}, true));
  wait_for(store, id, [](const Json& t) { return field(t, "status") == "input_required"; });
  EXPECT_FALSE(store.update("someone else", id, {{"k", {{"roots", Json::array()}}}}));
  EXPECT_TRUE(
      store.update("p", id, {{"k", {{"big", std::string(TaskStore::kMaxAnswerBytes, 'x')}}}}));
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(store.get("p", id)->at("status"), "input_required");
  EXPECT_TRUE(store.cancel("p", id));
  Json done = wait_for(store, id, [](const Json& t) { return field(t, "status") == "cancelled"; });
  EXPECT_EQ(done["status"], "cancelled") << done.dump();
}

TEST(TaskStore, BeforeThePromotionAQuestionIsNotTheTasks) {
  TaskStore store(TaskOptions{.inline_budget = 10s});
  auto outcome = store.run(
      "p", "inline",
      [](std::stop_token stop, TaskLink& link) {
        bool was = link.promoted();
        auto answer = link.ask("k", "elicitation/create", elicit("?"), kLong, stop);
        return Json{{"promoted", was}, {"answered", answer.has_value()}};
      },
      {}, false);
  auto* finished = std::get_if<TaskStore::Finished>(&outcome);
  ASSERT_NE(finished, nullptr);
  EXPECT_EQ(finished->result, (Json{{"promoted", false}, {"answered", false}}));
}

TEST(TaskStore, PromoteMakesTheCallATaskWithoutWaitingOutTheBudget) {
  TaskStore store(TaskOptions{.inline_budget = 60s});
  auto started = std::chrono::steady_clock::now();
  std::string id = promoted_id(store.run(
      "p", "promoting",
      [](std::stop_token stop, TaskLink& link) {
        link.promote();
        std::this_thread::sleep_for(200ms);
        return Json{{"promoted", link.promoted()}, {"stopped", stop.stop_requested()}};
      },
      {}, false));
  EXPECT_LT(std::chrono::steady_clock::now() - started, 30s);
  ASSERT_FALSE(id.empty());
  Json done = wait_for(store, id, [](const Json& t) { return field(t, "status") == "completed"; });
  EXPECT_EQ(done["result"], (Json{{"promoted", true}, {"stopped", false}}));
}

TEST(TaskStore, AWorkThatThrowsEndsFailedWithTheErrorAndNoResult) {
  TaskStore store(TaskOptions{});
  std::string id = promoted_id(store.run(
      "p", "crash",
      [](std::stop_token, TaskLink&) -> Json {
        std::this_thread::sleep_for(50ms);
        throw std::runtime_error("boom");
      },
      {}, true));
  Json done = wait_for(store, id, [](const Json& t) { return field(t, "status") == "failed"; });
  ASSERT_EQ(done["status"], "failed") << done.dump();
  EXPECT_EQ(done["error"]["code"], -32603);
  EXPECT_EQ(done["error"]["message"], "Internal error: boom");
  EXPECT_FALSE(done.contains("result"));
}

}  // namespace
}  // namespace hermes::mcp
