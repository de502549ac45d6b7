// SPDX-License-Identifier: MIT
#include "tools/task/task_config.h"

#include "core/config.h"
#include "tools/task/task_fixture.h"

#include <gtest/gtest.h>

namespace hermes::task {
namespace {

using testing::ScopedEnv;

void clear_env(ScopedEnv& env) {
  for (const char* name : {"HERMES_AUTH_PATH", "HERMES_BIN", "HERMES_MAX_PROMPT_LENGTH",
                           "HERMES_TASK_CWD_ALLOWLIST"}) {
    env.unset(name);
  }
}

TEST(TaskConfig, ReferenceDefaultsUnderHermesHome) {
  ScopedEnv env;
  clear_env(env);
  TaskConfig c = load_task_config(*Config::from_yaml("", "/h"));
  EXPECT_EQ(c.auth_path, "/h/auth.json");
  EXPECT_EQ(c.hermes_bin, "hermes");
  EXPECT_EQ(c.cache_dir, "/h/hermes-task-cache");
  EXPECT_EQ(c.models_cache_path, "/h/provider_models_cache.json");
  EXPECT_TRUE(c.cwd_allowlist.empty());
  EXPECT_EQ(c.max_result_bytes, 204800);
  EXPECT_EQ(c.max_digest_result_bytes, 8192);
  EXPECT_EQ(c.max_prompt_length, 4000);
  EXPECT_EQ(c.exhausted_forgive_ttl_ms, 6 * 3600 * 1000);
  EXPECT_EQ(c.default_output_mode, OutputMode::kDigest);
  EXPECT_EQ(c.tiebreak_order,
            (std::vector<std::string>{"nvidia", "huggingface", "gemini", "kimi-coding"}));
  EXPECT_EQ(c.capability_map.at("voice").front().model, "gemini-3.1-flash-tts");
}

TEST(TaskConfig, FileKeysAndEnvOverrides) {
  ScopedEnv env;
  clear_env(env);
  auto config = Config::from_yaml(R"(task_server:
  max_prompt_length: 100
  default_output_mode: full
  exhausted_forgive_ttl_ms: 0
  tiebreak_order: [opencode-zen, gemini]
  cwd_allowlist: [/srv/a, /srv/b]
  capability_map:
    coding: [opencode-zen/mimo-v2.5-free, "openrouter/cohere/north-mini-code:free", bad-entry]
)",
                                  "/h");
  TaskConfig c = load_task_config(*config);
  EXPECT_EQ(c.max_prompt_length, 100);
  EXPECT_EQ(c.default_output_mode, OutputMode::kFull);
  EXPECT_EQ(c.exhausted_forgive_ttl_ms, 0);
  EXPECT_EQ(c.tiebreak_order, (std::vector<std::string>{"opencode-zen", "gemini"}));
  EXPECT_EQ(c.cwd_allowlist, (std::vector<std::string>{"/srv/a", "/srv/b"}));
  ASSERT_EQ(c.capability_map.at("coding").size(), 2u);
  EXPECT_EQ(c.capability_map.at("coding")[1].provider, "openrouter");
  EXPECT_EQ(c.capability_map.at("coding")[1].model, "cohere/north-mini-code:free");
  EXPECT_EQ(c.capability_map.at("reasoning").size(), 6u);  // untouched rows stay
  env.set("HERMES_AUTH_PATH", "/elsewhere/auth.json");
  env.set("HERMES_BIN", "/opt/hermes");
  env.set("HERMES_MAX_PROMPT_LENGTH", "250");
  env.set("HERMES_TASK_CWD_ALLOWLIST", "/x, /y");
  TaskConfig e = load_task_config(*config);
  EXPECT_EQ(e.auth_path, "/elsewhere/auth.json");
  EXPECT_EQ(e.hermes_bin, "/opt/hermes");
  EXPECT_EQ(e.max_prompt_length, 250);
  EXPECT_EQ(e.cwd_allowlist, (std::vector<std::string>{"/x", "/y"}));
}

TEST(TaskConfig, BadValuesFallBackToDefaults) {
  ScopedEnv env;
  clear_env(env);
  TaskConfig c = load_task_config(*Config::from_yaml(
      "task_server:\n  max_result_bytes: lots\n  max_prompt_length: -5\n", "/h"));
  EXPECT_EQ(c.max_result_bytes, 204800);
  EXPECT_EQ(c.max_prompt_length, 4000);
}

}  // namespace
}  // namespace hermes::task
