// SPDX-License-Identifier: MIT
// InputRound: a question without an answer is kept for the input_required
// result; a retry finds an answer only for the very question it answered,
// at its place, and only for methods the request declared.
#include "mcp/input_round.h"

#include "registry/elicitation.h"

#include <gtest/gtest.h>

#include <vector>

namespace hermes::mcp {
namespace {

using namespace std::chrono_literals;

class Recorder final : public registry::ClientChannel {
 public:
  void notify(const std::string& method, const Json&) override { sent.push_back(method); }
  bool supports_elicitation() const override { return true; }
  std::optional<Json> request(const std::string&, const Json&, std::chrono::milliseconds,
                              std::stop_token) override {
    ADD_FAILURE() << "a modern call sends the client no request";
    return std::nullopt;
  }
  std::vector<std::string> sent;
};

const Json kElicitation = {{"elicitation", Json::object()}};
const Json kAccept = {{"action", "accept"}, {"content", {{"decision", "once"}}}};

Json ask_params(const std::string& message) {
  return {{"message", message}, {"requestedSchema", {{"type", "object"}}}};
}

class InputRoundTest : public ::testing::Test {
 protected:
  // A round of a call whose earlier round was `earlier`, answered with `responses`.
  std::unique_ptr<InputRound> round(const InputRound* earlier = nullptr,
                                    const Json& responses = Json::object(),
                                    const Json& capabilities = kElicitation) {
    Json record = earlier ? earlier->record() : Json::object();
    return std::make_unique<InputRound>(client_, capabilities, states_, std::move(record),
                                        responses);
  }
  std::optional<Json> ask(InputRound& r, const std::string& message) {
    return r.request("elicitation/create", ask_params(message), 1s, {});
  }

  Recorder client_;
  RequestStates states_;
};

TEST_F(InputRoundTest, AQuestionWithoutAnAnswerIsKeptForTheResult) {
  auto first = round();
  EXPECT_TRUE(first->supports_elicitation());
  EXPECT_EQ(ask(*first, "Run it?"), std::nullopt);
  Json questions = first->questions();
  ASSERT_EQ(questions.size(), 1u);
  EXPECT_EQ(questions["input-1"]["method"], "elicitation/create");
  EXPECT_EQ(questions["input-1"]["params"], ask_params("Run it?"));
  first->notify("notifications/progress", Json::object());
  EXPECT_EQ(client_.sent, std::vector<std::string>{"notifications/progress"});
}

TEST_F(InputRoundTest, TheRetryFindsItsAnswer) {
  auto first = round();
  ask(*first, "Run it?");
  auto second = round(first.get(), {{"input-1", kAccept}});
  EXPECT_EQ(ask(*second, "Run it?"), kAccept);
  EXPECT_TRUE(second->questions().empty());
  // A third round carries the answer on, and asks only what is new.
  auto third = round(second.get());
  EXPECT_EQ(ask(*third, "Run it?"), kAccept);
  EXPECT_EQ(ask(*third, "And this?"), std::nullopt);
  EXPECT_EQ(third->questions().size(), 1u);
  EXPECT_TRUE(third->questions().contains("input-2"));
}

TEST_F(InputRoundTest, AnAnswerMeetsOnlyItsOwnQuestion) {
  auto first = round();
  ask(*first, "Delete build?");
  ask(*first, "Delete home?");
  auto second = round(first.get(), {{"input-1", kAccept}, {"input-2", kAccept}});
  // The tool asks in another order: neither answer is the answer to the
  // question now at its place, so both are asked again.
  EXPECT_EQ(ask(*second, "Delete home?"), std::nullopt);
  EXPECT_EQ(ask(*second, "Delete build?"), std::nullopt);
  EXPECT_EQ(second->questions().size(), 2u);
}

TEST_F(InputRoundTest, AMissingOrUnusableAnswerAsksAgain) {
  auto first = round();
  ask(*first, "Run it?");
  for (const Json& responses :
       {Json::object(), Json{{"wrong_key", kAccept}}, Json{{"input-1", 12345}},
        Json{{"input-1", {{"content", {{"decision", "once"}}}}}},  // no action
        Json{{"input-1", {{"action", "accept"}, {"content", std::string(20000, 'x')}}}}}) {
    auto retry = round(first.get(), responses);
    EXPECT_EQ(ask(*retry, "Run it?"), std::nullopt) << dump_json(responses);
    EXPECT_TRUE(retry->questions().contains("input-1"));
  }
}

TEST_F(InputRoundTest, ADeclineIsAnAnswer) {
  auto first = round();
  ask(*first, "Run it?");
  Json decline = {{"action", "decline"}};
  auto second = round(first.get(), {{"input-1", decline}});
  EXPECT_EQ(ask(*second, "Run it?"), decline);
  EXPECT_TRUE(second->questions().empty());
}

TEST_F(InputRoundTest, OnlyDeclaredCapabilitiesAreAsked) {
  auto plain = round(nullptr, Json::object(), Json::object());
  EXPECT_FALSE(plain->supports_elicitation());
  EXPECT_EQ(ask(*plain, "Run it?"), std::nullopt);
  EXPECT_TRUE(plain->questions().empty());
  auto sampling = round(nullptr, Json::object(), {{"sampling", Json::object()}});
  EXPECT_EQ(ask(*sampling, "Run it?"), std::nullopt);
  EXPECT_EQ(sampling->request("sampling/createMessage", {{"maxTokens", 5}}, 1s, {}), std::nullopt);
  EXPECT_EQ(sampling->request("ping", Json::object(), 1s, {}), std::nullopt);
  Json questions = sampling->questions();
  ASSERT_EQ(questions.size(), 1u);
  EXPECT_EQ(questions.begin().value()["method"], "sampling/createMessage");
}

TEST_F(InputRoundTest, NamedQuestionsKeepTheirNamesAndStayUnique) {
  auto first = round();
  registry::Elicitation question{.message = "Run it?", .key = "approval"};
  EXPECT_EQ(registry::elicit(*first, question, 1s, {}), std::nullopt);
  EXPECT_EQ(registry::elicit(*first, question, 1s, {}), std::nullopt);
  Json questions = first->questions();
  EXPECT_TRUE(questions.contains("approval"));
  EXPECT_TRUE(questions.contains("approval-2"));
  auto second = round(first.get(), {{"approval-2", kAccept}});
  EXPECT_EQ(registry::elicit(*second, question, 1s, {}), std::nullopt);
  auto answer = registry::elicit(*second, question, 1s, {});
  ASSERT_TRUE(answer.has_value());
  EXPECT_EQ(answer->action, "accept");
}

TEST_F(InputRoundTest, QuestionsAreBounded) {
  auto first = round();
  for (size_t i = 0; i < InputRound::kMaxQuestions + 3; ++i) ask(*first, "q" + std::to_string(i));
  EXPECT_EQ(first->questions().size(), InputRound::kMaxQuestions);
}

}  // namespace
}  // namespace hermes::mcp
