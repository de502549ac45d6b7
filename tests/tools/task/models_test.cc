// SPDX-License-Identifier: MIT
// hermes_models: cache ∪ capability map, liveness flags, filters; plus
// hermes_telemetry through its tool edge.
#include "tools/task/iso_time.h"
#include "tools/task/task_fixture.h"
#include "tools/task/task_tools.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>

namespace hermes::task {
namespace {

using testing::auth_json;
using testing::credential;
using testing::TaskHome;

class Models : public ::testing::Test {
 protected:
  Models() {
    home_.dir().write("home/provider_models_cache.json", R"({
      "gemini": {"fp": "x", "at": 1755000000, "models": ["gemini-3.1-flash-lite", "gemini-2.5-pro", "gemini-3.5-flash-lite"]},
      "openrouter+base_url=https://x": {"fp": "y", "at": 1755000100, "models": []}
    })");
  }
  Json models(const Json& args) { return home_.call(specs_, "hermes_models", args); }
  static const Json* find(const Json& out, const std::string& provider) {
    for (const Json& p : out["providers"]) {
      if (p["provider"] == provider) return &p;
    }
    return nullptr;
  }
  TaskHome home_;
  std::vector<registry::ToolSpec> specs_ = task_tool_specs(testing::real_service());
};

TEST_F(Models, MergesCacheAuthAndCapabilityMap) {
  Json out = models(Json::object());
  ASSERT_EQ(out["ok"], true) << out.dump();
  EXPECT_EQ(out["source"], "mixed");
  EXPECT_EQ(out["fetched_at"], 1755000100);
  EXPECT_EQ(out["count"], 3);
  const Json* gemini = find(out, "gemini");
  ASSERT_NE(gemini, nullptr);
  EXPECT_EQ(out["providers"][0]["provider"], "gemini");  // sorted
  EXPECT_EQ((*gemini)["status"], "alive");
  EXPECT_EQ((*gemini)["source"], "cache");
  EXPECT_EQ((*gemini)["model_count"], 3);
  EXPECT_EQ((*gemini)["default_model"], "gemini-3.1-flash-lite");
  EXPECT_EQ((*gemini)["models"][0], Json::parse(R"({"id":"gemini-2.5-pro","capabilities":[],
      "input_types":["text"],"is_default":false})"));
  EXPECT_EQ((*gemini)["models"][1]["input_types"],
            Json::parse(R"(["audio","image","pdf","text","video"])"));
  EXPECT_EQ((*gemini)["models"][2]["input_types"], Json::parse(R"(["image","pdf","text"])"));
  const Json* zen = find(out, "opencode-zen");
  ASSERT_NE(zen, nullptr);
  EXPECT_EQ((*zen)["status"], "dead");  // no credential in auth.json
  EXPECT_EQ((*zen)["source"], "capability-map");
}

TEST_F(Models, ProviderFilterAndUnknownProvider) {
  Json out = models({{"provider", "gemini"}, {"limit", 1}});
  EXPECT_EQ(out["count"], 1);
  EXPECT_EQ(out["providers"][0]["model_count"], 3);
  EXPECT_EQ(out["providers"][0]["models"].size(), 1u);
  Json missing = models({{"provider", "nope"}});
  EXPECT_EQ(
      missing,
      Json::parse(
          R"({"ok":false,"error":"provider_not_found","error_detail":"no models known for provider \"nope\""})"));
}

TEST_F(Models, InputTypeFilter) {
  Json out = models({{"input_type", "pdf"}});
  for (const Json& p : out["providers"]) {
    EXPECT_GT(p["model_count"].get<int>(), 0);
    for (const Json& m : p["models"]) {
      EXPECT_NE(std::find(m["input_types"].begin(), m["input_types"].end(), "pdf"),
                m["input_types"].end());
    }
  }
  EXPECT_EQ(find(out, "opencode-zen"), nullptr);
  EXPECT_EQ(models({{"provider", "opencode-zen"},
                    {"input_type", "video"}})["providers"][0]["model_count"],
            0);
}

TEST_F(Models, CorruptCacheFallsBackToTheMapWithAReason) {
  home_.dir().write("home/provider_models_cache.json", "not json at all");
  Json out = models(Json::object());
  EXPECT_EQ(out["ok"], true);
  EXPECT_EQ(out["source"], "capability-map");
  EXPECT_TRUE(out["fetched_at"].is_null());
  EXPECT_NE(out["cache_error"].get<std::string>().find("not valid JSON"), std::string::npos);
  EXPECT_EQ(home_.dir().read("home/provider_models_cache.json"), "not json at all");
}

// The cache path is an argument: a hostile caller points it at whatever
// blocks or never ends. Each answer comes at once, from the capability map.
TEST_F(Models, CacheThatIsNotARegularFileIsRefusedAtOnce) {
  std::string fifo = home_.dir().file("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& path : {fifo, std::string("/dev/zero"), home_.dir().path()}) {
    auto started = std::chrono::steady_clock::now();
    Json out = models({{"models_cache_path", path}});
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(2)) << path;
    EXPECT_EQ(out["ok"], true) << path;
    EXPECT_EQ(out["source"], "capability-map") << path;
    EXPECT_NE(out["cache_error"].get<std::string>().find("not a regular file"), std::string::npos)
        << out["cache_error"];
  }
}

TEST_F(Models, OversizedCacheIsRefusedBeforeReading) {
  std::string big = home_.dir().write("big.json", "");
  ASSERT_EQ(::truncate(big.c_str(), off_t{2} << 30), 0);  // sparse: no disk used
  Json out = models({{"models_cache_path", big}});
  EXPECT_EQ(out["source"], "capability-map");
  EXPECT_NE(out["cache_error"].get<std::string>().find("limit"), std::string::npos)
      << out["cache_error"];
}

TEST_F(Models, AuthFileOnAFifoCountsAsMissing) {
  ::unlink(home_.auth_path().c_str());
  Json missing = models(Json::object());
  ASSERT_EQ(::mkfifo(home_.auth_path().c_str(), 0600), 0);
  Json fifo = models(Json::object());
  ASSERT_EQ(fifo["ok"], true);
  EXPECT_EQ(fifo, missing);
}

TEST_F(Models, DeeplyNestedCacheIsAnErrorNotACrash) {
  home_.dir().write("home/provider_models_cache.json",
                    std::string(100000, '[') + std::string(100000, ']'));
  Json out = models(Json::object());
  EXPECT_EQ(out["source"], "capability-map");
  EXPECT_NE(out["cache_error"].get<std::string>().find("nesting"), std::string::npos);
}

TEST_F(Models, WrongTypedArgumentIsNamed) {
  Json out = models({{"provider", 5}});
  EXPECT_EQ(out["ok"], false);
  EXPECT_EQ(out["error"], "invalid_args");
  EXPECT_EQ(out["error_detail"], "'provider' must be a string, got int");
  EXPECT_EQ(models({{"provider", nullptr}})["ok"], true);  // null is absent
}

TEST_F(Models, LivenessFlagsFollowTheAutoPickRules) {
  std::string old = std::to_string(now_epoch_ms() / 1000 - 7 * 3600);
  std::string future = std::to_string(now_epoch_ms() / 1000 + 3600);
  home_.write_auth(auth_json(
      {{"gemini",
        credential(R"("last_status": "exhausted", "last_error_code": 429, "last_status_at": )" +
                   old + R"(, "last_error_reset_at": )" + future)},
       {"openrouter", credential(R"("last_status": "exhausted", "last_status_at": )" + future)}}));
  Json out = models(Json::object());
  EXPECT_EQ((*find(out, "gemini"))["status"], "alive");  // forgiven after 6 h
  EXPECT_EQ((*find(out, "gemini"))["last_status"], "exhausted");
  EXPECT_EQ((*find(out, "gemini"))["last_error_code"], 429);
  EXPECT_EQ((*find(out, "openrouter"))["status"], "dead");
  ::unlink(home_.auth_path().c_str());
  EXPECT_EQ((*find(models(Json::object()), "gemini"))["status"], "unknown");
}

TEST_F(Models, TelemetryToolReportsCachedRuns) {
  home_.env().set("STUB_ANSWER", "ok");
  ASSERT_EQ(home_.call(specs_, "hermes_task", {{"prompt", "hi"}})["ok"], true);
  home_.dir().write(
      "home/hermes-task-cache/old.json",
      R"({"task_id":"old","exit_code":1,"provider":"gemini","created_at":"2020-01-01T00:00:00Z"})");
  home_.dir().write("home/hermes-task-cache/broken.json", "{");
  Json all = home_.call(specs_, "hermes_telemetry", Json::object());
  EXPECT_FALSE(all.contains("ok"));
  EXPECT_EQ(all["runs"], 2);
  EXPECT_EQ(all["success_rate"], 0.5);
  EXPECT_EQ(all["estimate"], true);
  EXPECT_EQ(all["window"]["since"], nullptr);
  Json recent = home_.call(specs_, "hermes_telemetry", {{"since", "2021-01-01T00:00:00Z"}});
  EXPECT_EQ(recent["runs"], 1);
  EXPECT_EQ(recent["exit_code_breakdown"], Json::parse(R"({"0": 1})"));
  EXPECT_EQ(recent["window"]["since"], "2021-01-01T00:00:00Z");
}

}  // namespace
}  // namespace hermes::task
