// SPDX-License-Identifier: MIT
#include "tools/task/provider_select.h"

#include "tools/task/capability_map.h"

#include <gtest/gtest.h>

namespace hermes::task {
namespace {

constexpr int64_t kNow = 1'780'000'000'000;  // epoch ms
constexpr int64_t kHour = 3'600'000;
constexpr int64_t kTtl = 6 * kHour;

Credential cred(Json status, std::optional<int64_t> status_at = {},
                std::optional<int64_t> reset_at = {}) {
  return Credential{true, std::move(status), Json(), status_at, reset_at};
}

Liveness live(const Credential& c) { return credential_liveness(c, kNow, kTtl); }

TEST(Liveness, NullOkAndUnknownStatusesAreAlive) {
  EXPECT_EQ(live(cred(Json())), Liveness::kAlive);
  EXPECT_EQ(live(cred("ok")), Liveness::kAlive);
  EXPECT_EQ(live(cred(401)), Liveness::kAlive);
}

TEST(Liveness, ExhaustedAs429Or402StringOrNumber) {
  for (const Json& status : {Json("exhausted"), Json("429"), Json(429), Json("402"), Json(402)}) {
    EXPECT_EQ(live(cred(status, kNow - kHour)), Liveness::kExhausted) << status.dump();
  }
}

TEST(Liveness, PastResetRevivesAndFutureResetDoesNot) {
  EXPECT_EQ(live(cred("exhausted", kNow - kHour, kNow - 1000)), Liveness::kForgiven);
  EXPECT_EQ(live(cred("exhausted", kNow - kHour, kNow + kHour)), Liveness::kExhausted);
}

TEST(Liveness, MarkOlderThanTtlIsForgiven) {
  EXPECT_EQ(live(cred("exhausted", kNow - 7 * kHour, kNow + kHour)), Liveness::kForgiven);
  EXPECT_EQ(credential_liveness(cred("exhausted", kNow - 7 * kHour), kNow, 0),
            Liveness::kExhausted);
}

TEST(Liveness, HermesDeadNeverRevivesByTime) {
  EXPECT_EQ(live(cred("dead", kNow - 100 * kHour, kNow - kHour)), Liveness::kDead);
}

TEST(Liveness, EpochSecondsMillisecondsAndIsoAreTheSameInstant) {
  // The reference compared second-valued reset times against milliseconds,
  // so every real reset looked past. Here all three spellings agree.
  int64_t reset_s = (kNow + kHour) / 1000;
  for (const Json& reset :
       {Json(reset_s), Json(reset_s * 1000), Json(static_cast<double>(reset_s) + 0.5),
        Json("2026-05-28T21:26:40Z")}) {
    auto ms = epoch_ms_of(reset);
    ASSERT_TRUE(ms.has_value()) << reset.dump();
    EXPECT_NEAR(static_cast<double>(*ms), static_cast<double>(reset_s * 1000), 1000)
        << reset.dump();
  }
  EXPECT_FALSE(epoch_ms_of(Json("soon")).has_value());
  EXPECT_FALSE(epoch_ms_of(Json(true)).has_value());
}

AuthSnapshot snapshot(std::vector<std::pair<std::string, Credential>> pool) {
  AuthSnapshot auth;
  auth.has_pool = true;
  for (auto& [name, c] : pool) auth.pool.push_back({name, {c}});
  return auth;
}

std::optional<ProviderModel> pick(const AuthSnapshot& auth, const std::string& prompt,
                                  const std::vector<std::string>& tiebreak = {
                                      "nvidia", "huggingface", "gemini", "kimi-coding"}) {
  CapabilityMap map = default_capability_map();
  return pick_provider(auth, PickInput{prompt, map, tiebreak, kNow, kTtl});
}

TEST(AutoPick, AliveGeminiWinsForReasoning) {
  auto auth = snapshot({{"openrouter", cred(Json())}, {"gemini", cred(Json())}});
  auto picked = pick(auth, "summarize this");
  ASSERT_TRUE(picked);
  EXPECT_EQ(picked->provider, "gemini");
  EXPECT_EQ(picked->model, "gemini-3.1-flash-lite");
}

TEST(AutoPick, ExhaustedGeminiFallsToNextAliveRow) {
  auto auth = snapshot(
      {{"gemini", cred("exhausted", kNow - kHour, kNow + kHour)}, {"openrouter", cred(Json())}});
  auto picked = pick(auth, "summarize this");
  ASSERT_TRUE(picked);
  EXPECT_EQ(picked->provider, "openrouter");
  EXPECT_EQ(picked->model, "nvidia/nemotron-3-ultra-550b-a55b:free");
}

TEST(AutoPick, ForgivenCredentialIsPickedAgain) {
  auto auth = snapshot({{"gemini", cred("exhausted", kNow - 7 * kHour, kNow + kHour)},
                        {"openrouter", cred(Json())}});
  EXPECT_EQ(pick(auth, "summarize this")->provider, "gemini");
}

TEST(AutoPick, DeadCredentialIsSkipped) {
  auto auth =
      snapshot({{"gemini", cred("dead", kNow - 100 * kHour)}, {"opencode-zen", cred(Json())}});
  auto picked = pick(auth, "summarize this");
  ASSERT_TRUE(picked);
  EXPECT_EQ(picked->provider, "opencode-zen");
}

TEST(AutoPick, NothingAliveGivesNone) {
  auto auth =
      snapshot({{"gemini", cred("exhausted", kNow, kNow + kHour)}, {"nvidia", cred(Json())}});
  EXPECT_FALSE(pick(auth, "summarize this"));
}

TEST(AutoPick, TiebreakOrdersProvidersOfTheRows) {
  auto auth = snapshot({{"gemini", cred(Json())}, {"opencode-zen", cred(Json())}});
  EXPECT_EQ(pick(auth, "fix this bug", {"opencode-zen", "gemini"})->provider, "opencode-zen");
  EXPECT_EQ(pick(auth, "fix this bug", {"opencode-zen", "gemini"})->model, "mimo-v2.5-free");
}

TEST(AutoPick, TopLevelProvidersCountAsAlive) {
  AuthSnapshot auth;
  auth.has_providers = true;
  auth.providers.push_back({"gemini", {Credential{true}}});
  EXPECT_EQ(pick(auth, "hello")->provider, "gemini");
  EXPECT_TRUE(provider_known(auth, "gemini"));
  EXPECT_FALSE(provider_known(auth, "nvidia"));
}

TEST(Classify, BucketsInReferenceOrder) {
  CapabilityMap map = default_capability_map();
  EXPECT_EQ(classify_capability("Draw a cat", map), "image-gen");
  EXPECT_EQ(classify_capability("read this aloud with a nice voice", map), "voice");
  EXPECT_EQ(classify_capability("describe the screenshot", map), "vision");
  EXPECT_EQ(classify_capability("what is the latest news", map), "coding");  // "test"
  EXPECT_EQ(classify_capability("make a chart", map), "multimodal");
  EXPECT_EQ(classify_capability("solve x", map), "reason");
  EXPECT_EQ(classify_capability("a roadmap for Q3", map), "planning");
  EXPECT_EQ(classify_capability("hello there", map), "reasoning");
  EXPECT_EQ(classify_capability("chat", map), "chat");
  EXPECT_EQ(classify_capability("t\u1ea1o \u1ea3nh con m\u00e8o", map), "image-gen");
}

TEST(DefaultModel, HostedReasoningRowElseFirstRow) {
  CapabilityMap map = default_capability_map();
  EXPECT_EQ(default_model_for("opencode-zen", map), "deepseek-v4-flash-free");
  EXPECT_EQ(default_model_for("nvidia", map), "gemini-3.1-flash-lite");
}

}  // namespace
}  // namespace hermes::task
