// SPDX-License-Identifier: MIT
// The tasks fixtures that ask the client read whatever comes back as an
// attacker's answer: a string, a number, an object whose fields have the
// wrong types. multi_input asks from a thread of its own, where a JSON type
// error would end the server; each must answer "no" instead.
#include "core/config.h"
#include "core/paths.h"
#include "registry/client_channel.h"
#include "registry/dispatcher.h"
#include "registry/registry.h"
#include "registry/session.h"
#include "tools/conformance/conformance.h"

#include <gtest/gtest.h>

#include <memory>

namespace hermes::conformance {
namespace {

// A client that answers every question with `answer`.
class Answering final : public registry::ClientChannel {
 public:
  explicit Answering(Json answer) : answer_(std::move(answer)) {}
  void notify(const std::string&, const Json&) override {}
  bool supports_elicitation() const override { return true; }
  std::optional<Json> request(const std::string&, const Json&, std::chrono::milliseconds,
                              std::stop_token) override {
    return answer_;
  }

 private:
  Json answer_;
};

class TaskFixtures : public ::testing::TestWithParam<Json> {
 protected:
  TaskFixtures() : config_(Config::from_yaml("", "/tmp")), services_{*config_, paths_} {
    register_task_fixtures(registry_);
    registry_.enable_toolsets({"conformance"});
  }
  std::string call(const std::string& tool, const Json& args) {
    registry::Dispatcher dispatcher(registry_, services_);
    Answering client(GetParam());
    registry::CallContext ctx{session_, services_, client, dispatcher, {}, Json()};
    registry::ToolCallResult result = dispatcher.call(*dispatcher.find(tool), args, ctx);
    EXPECT_FALSE(result.crash) << tool << ": " << *result.crash;
    return result.text;
  }

  std::unique_ptr<Config> config_;
  PathResolver paths_;
  registry::Services services_;
  registry::Registry registry_;
  registry::Session session_{"s"};
};

TEST_P(TaskFixtures, AMalformedAnswerIsANoNeverACrash) {
  EXPECT_EQ(call("multi_input", Json::object()), "first: no, second: no");
  EXPECT_EQ(call("confirm_delete", {{"filename", "x.txt"}}), "Kept x.txt");
  EXPECT_EQ(call("test_tool_with_task", Json::object()), "No name was given");
}

INSTANTIATE_TEST_SUITE_P(
    Answers, TaskFixtures,
    ::testing::Values(Json("accept"), Json(42), Json::array({1, 2}), Json(nullptr),
                      Json{{"action", 5}}, Json{{"action", "accept"}, {"content", "yes"}},
                      Json{{"action", "accept"}, {"content", {{"confirm", "yes"}}}},
                      Json{{"action", "accept"}, {"content", {{"name", 7}}}}));

// The well-formed answer, for contrast: the same calls say yes.
TEST(TaskFixturesAccepted, AYesIsAYes) {
  auto config = Config::from_yaml("", "/tmp");
  PathResolver paths;
  registry::Services services{*config, paths};
  registry::Registry registry;
  register_task_fixtures(registry);
  registry.enable_toolsets({"conformance"});
  registry::Dispatcher dispatcher(registry, services);
  registry::Session session("s");
  Answering client({{"action", "accept"}, {"content", {{"confirm", true}}}});
  registry::CallContext ctx{session, services, client, dispatcher, {}, Json()};
  EXPECT_EQ(dispatcher.call(*dispatcher.find("multi_input"), Json::object(), ctx).text,
            "first: yes, second: yes");
}

}  // namespace
}  // namespace hermes::conformance
