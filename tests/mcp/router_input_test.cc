// SPDX-License-Identifier: MIT
// The router's input rounds on the 2026-07-28 wire: a tool's question makes
// the call answer input_required; the retry with the answers and the exact
// requestState runs the tool again to completion; a state that was altered,
// replayed, or issued to another principal is refused; on the legacy wire
// the question still goes to the client as a request.
#include "core/config.h"
#include "core/paths.h"
#include "mcp/router.h"
#include "registry/client_channel.h"
#include "registry/elicitation.h"
#include "registry/session.h"

#include <gtest/gtest.h>

#include <atomic>

namespace hermes::mcp {
namespace {

using namespace std::chrono_literals;

// Counts the requests that reach the client; answers each with `answer`.
class CountingClient final : public registry::ClientChannel {
 public:
  void notify(const std::string&, const Json&) override {}
  bool supports_elicitation() const override { return true; }
  std::optional<Json> request(const std::string&, const Json&, std::chrono::milliseconds,
                              std::stop_token) override {
    ++asked;
    return Json{{"action", "accept"}};
  }
  int asked = 0;
};

class RouterInputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // Asks to "act"; acts (counts) only when the user accepted.
    auto guarded = [this](const Json& args, registry::CallContext& ctx) -> registry::ToolReply {
      if (!ctx.client.supports_elicitation()) return registry::ToolReply{{{"outcome", "pending"}}};
      registry::Elicitation question{.message = "Act on " + args.value("target", "?") + "?",
                                     .key = "approval"};
      auto answer = registry::elicit(ctx.client, question, 1s, ctx.stop);
      if (!answer) return registry::ToolReply{{{"outcome", "silence"}}};
      if (answer->action != "accept") return registry::ToolReply{{{"outcome", answer->action}}};
      ++acted_;
      return registry::ToolReply{{{"outcome", "acted"}}};
    };
    for (bool long_running : {false, true}) {
      registry::ToolSpec spec{.name = long_running ? "guarded_long" : "guarded",
                              .toolset = "file",
                              .description = "d",
                              .input_schema = {{"type", "object"}},
                              .run = guarded};
      if (long_running) spec.long_running = [](const Json&) { return true; };
      registry_.add(std::move(spec));
    }
    // A prompt that asks for the text it greets with.
    registry_.add_prompt(
        {.name = "asking",
         .toolset = "file",
         .get = [](const Json&, registry::ClientChannel& client) {
           auto answer = client.request_named(
               "who", "elicitation/create",
               {{"message", "Whom?"}, {"requestedSchema", {{"type", "object"}}}}, 1s, {});
           std::string who =
               answer ? answer->value("content", Json::object()).value("who", "") : "nobody";
           return Json::array({{{"role", "user"}, {"content", {{"type", "text"}, {"text", who}}}}});
         }});
    RouterOptions options;
    options.task.inline_budget = 2000ms;
    router_ = std::make_unique<Router>(registry_, services_, options);
  }

  // The result (or error) of a tools/call of `tool` by `principal`.
  Json call(const Json& params, const std::string& principal = "alice",
            const Json& capabilities = {{"elicitation", Json::object()}}) {
    Json id = ++next_id_;
    auto prepared = router_->prepare_call(id, params);
    if (auto* reply = std::get_if<Reply>(&prepared)) return reply->message;
    Envelope envelope{.version = "2026-07-28", .client_capabilities = capabilities};
    std::stop_source stop;
    CallEnv env{session_, client_, stop.get_token(), &envelope, principal};
    auto reply = router_->run_call(id, std::get<PreparedCall>(prepared), env);
    return reply ? reply->message : Json();
  }
  // The result (or error) of a modern prompts/get.
  Json get_prompt(const Json& params, const std::string& principal = "alice") {
    Envelope envelope{.version = "2026-07-28",
                      .client_capabilities = {{"elicitation", Json::object()}}};
    return router_->modern(++next_id_, "prompts/get", params, envelope, principal).message;
  }
  static Json first_call(const std::string& tool = "guarded") {
    return {{"name", tool}, {"arguments", {{"target", "build"}}}};
  }
  static Json retry(Json params, const Json& state, const Json& responses) {
    params["inputResponses"] = responses;
    params["requestState"] = state;
    return params;
  }
  static std::string outcome(const Json& reply) {
    const Json& content = reply["result"]["content"];
    if (!content.is_array() || content.empty()) return "";
    return Json::parse(content[0]["text"].get<std::string>()).value("outcome", "");
  }

  std::unique_ptr<Config> config_ = Config::from_yaml("");
  PathResolver paths_;
  registry::Services services_{*config_, paths_};
  registry::Registry registry_;
  registry::Session session_{"s"};
  CountingClient client_;
  std::unique_ptr<Router> router_;
  std::atomic<int> acted_{0};
  int next_id_ = 0;
};

const Json kAccept = {{"action", "accept"}, {"content", Json::object()}};

TEST_F(RouterInputTest, AQuestionAnswersInputRequiredAndTheRetryCompletes) {
  Json first = call(first_call());
  const Json& result = first["result"];
  ASSERT_EQ(result["resultType"], "input_required") << dump_json(first);
  EXPECT_EQ(result["inputRequests"]["approval"]["method"], "elicitation/create");
  EXPECT_EQ(result["inputRequests"]["approval"]["params"]["message"], "Act on build?");
  ASSERT_TRUE(result["requestState"].is_string());
  EXPECT_FALSE(result.contains("content"));  // the tool's own result is dropped
  EXPECT_EQ(acted_, 0);
  EXPECT_EQ(client_.asked, 0);  // nothing is sent to the client on this wire

  Json done = call(retry(first_call(), result["requestState"], {{"approval", kAccept}}));
  EXPECT_EQ(done["result"]["resultType"], "complete") << dump_json(done);
  EXPECT_EQ(outcome(done), "acted");
  EXPECT_EQ(acted_, 1);
}

TEST_F(RouterInputTest, ADeclineOrCancelDenies) {
  for (const char* action : {"decline", "cancel"}) {
    Json first = call(first_call());
    Json done = call(
        retry(first_call(), first["result"]["requestState"], {{"approval", {{"action", action}}}}));
    EXPECT_EQ(done["result"]["resultType"], "complete");
    EXPECT_EQ(outcome(done), action);
  }
  EXPECT_EQ(acted_, 0);
}

TEST_F(RouterInputTest, AnAlteredReplayedOrForeignStateIsRefused) {
  Json state = call(first_call())["result"]["requestState"];
  Json altered =
      call(retry(first_call(), state.get<std::string>() + "-TAMPERED", {{"approval", kAccept}}));
  EXPECT_EQ(altered["error"]["code"], -32602) << dump_json(altered);
  Json foreign = call(retry(first_call(), state, {{"approval", kAccept}}), "mallory");
  EXPECT_EQ(foreign["error"]["code"], -32602);
  Json other_args = first_call();
  other_args["arguments"]["target"] = "home";
  EXPECT_EQ(call(retry(other_args, state, {{"approval", kAccept}}))["error"]["code"], -32602);
  EXPECT_EQ(acted_, 0);
  // Refusals spend nothing: the genuine retry still works, once.
  EXPECT_EQ(outcome(call(retry(first_call(), state, {{"approval", kAccept}}))), "acted");
  Json replay = call(retry(first_call(), state, {{"approval", kAccept}}));
  EXPECT_EQ(replay["error"]["code"], -32602);
  EXPECT_NE(replay["error"]["message"].get<std::string>().find("already used"), std::string::npos);
  EXPECT_EQ(call(retry(first_call(), 7, {{"approval", kAccept}}))["error"]["code"], -32602);
  EXPECT_EQ(acted_, 1);
}

TEST_F(RouterInputTest, AnswersWithoutAStateAreNotAnswers) {
  Json params = first_call();
  params["inputResponses"] = {{"approval", kAccept}};
  Json reply = call(params);
  EXPECT_EQ(reply["result"]["resultType"], "input_required");
  EXPECT_EQ(acted_, 0);
  params["inputResponses"] = nullptr;
  EXPECT_EQ(call(params)["error"]["code"], -32602);
}

TEST_F(RouterInputTest, AMissingAnswerAsksAgainWithAFreshState) {
  Json first = call(first_call())["result"];
  Json again = call(retry(first_call(), first["requestState"], {{"other", kAccept}}))["result"];
  EXPECT_EQ(again["resultType"], "input_required");
  EXPECT_TRUE(again["inputRequests"].contains("approval"));
  EXPECT_NE(again["requestState"], first["requestState"]);
  Json done = call(retry(first_call(), again["requestState"], {{"approval", kAccept}}));
  EXPECT_EQ(outcome(done), "acted");
}

TEST_F(RouterInputTest, WithoutElicitationNothingIsAsked) {
  Json reply = call(first_call(), "alice", Json::object());
  EXPECT_EQ(reply["result"]["resultType"], "complete");
  EXPECT_EQ(outcome(reply), "pending");
}

TEST_F(RouterInputTest, ACallThatMayBecomeATaskAsksFirst) {
  Json tasks = {{"elicitation", Json::object()},
                {"extensions", {{"io.modelcontextprotocol/tasks", Json::object()}}}};
  Json first = call(first_call("guarded_long"), "alice", tasks)["result"];
  ASSERT_EQ(first["resultType"], "input_required");
  Json done =
      call(retry(first_call("guarded_long"), first["requestState"], {{"approval", kAccept}}),
           "alice", tasks);
  EXPECT_EQ(outcome(done), "acted");
}

TEST_F(RouterInputTest, TheLegacyWireStillSendsTheRequest) {
  Json id = 1;
  auto prepared = router_->prepare_call(id, first_call());
  CallEnv env{session_, client_, {}, nullptr, "alice"};
  auto reply = router_->run_call(id, std::get<PreparedCall>(prepared), env);
  ASSERT_TRUE(reply);
  EXPECT_EQ(client_.asked, 1);
  EXPECT_EQ(outcome(reply->message), "acted");
}

// input_required is not only for tools/call (mcp-http.md §2.8): a prompt's
// question makes prompts/get answer it, and the retry gets the messages.
TEST_F(RouterInputTest, APromptsQuestionAnswersInputRequiredAndTheRetryGetsIt) {
  const Json params = {{"name", "asking"}};
  Json first = get_prompt(params);
  const Json& result = first["result"];
  ASSERT_EQ(result["resultType"], "input_required") << dump_json(first);
  EXPECT_EQ(result["inputRequests"]["who"]["method"], "elicitation/create");
  EXPECT_FALSE(result.contains("messages"));

  const Json answer = {{"action", "accept"}, {"content", {{"who", "Ada"}}}};
  Json done = get_prompt(retry(params, result["requestState"], {{"who", answer}}));
  EXPECT_EQ(done["result"]["resultType"], "complete") << dump_json(done);
  EXPECT_EQ(done["result"]["messages"][0]["content"]["text"], "Ada");
  EXPECT_EQ(client_.asked, 0);

  // The state is bound to the prompt and its principal, and good once.
  Json again = get_prompt(retry(params, result["requestState"], {{"who", answer}}));
  EXPECT_EQ(again["error"]["code"], -32602) << dump_json(again);
  Json other = get_prompt(params, "bob");
  Json stolen = get_prompt(retry(params, other["result"]["requestState"], {{"who", answer}}));
  EXPECT_EQ(stolen["error"]["code"], -32602) << dump_json(stolen);
  Json as_tool =
      call(retry(first_call(), other["result"]["requestState"], {{"approval", kAccept}}), "bob");
  EXPECT_EQ(as_tool["error"]["code"], -32602) << dump_json(as_tool);
}

}  // namespace
}  // namespace hermes::mcp
