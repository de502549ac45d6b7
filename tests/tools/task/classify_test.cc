// SPDX-License-Identifier: MIT
#include "tools/task/classify.h"

#include <gtest/gtest.h>

namespace hermes::task {
namespace {

AgentResult exited(int code, std::string err = "") {
  AgentResult r;
  r.exit_code = code;
  r.stderr_text = std::move(err);
  return r;
}

TEST(ClassifyRun, Taxonomy) {
  AgentResult spawn;
  spawn.spawn_failed = true;
  EXPECT_EQ(classify_run(spawn), RunClass::kSpawnFailed);
  AgentResult timeout;
  timeout.timed_out = true;
  EXPECT_EQ(classify_run(timeout), RunClass::kTimeout);
  EXPECT_EQ(classify_run(exited(1, "Error: HTTP 429: Rate limit exceeded")),
            RunClass::kRateLimited);
  EXPECT_EQ(classify_run(exited(1, "FreeUsageLimitError: quota")), RunClass::kRateLimited);
  EXPECT_EQ(classify_run(exited(1, "Error: boom")), RunClass::kUnknown);
  EXPECT_EQ(classify_run(exited(0, "")), RunClass::kSuccess);
  AgentResult signaled;
  signaled.term_signal = 9;
  EXPECT_EQ(classify_run(signaled), RunClass::kUnknown);
}

TEST(ClassifyRun, SuccessfulRunIsNeverRateLimited) {
  // The reference grepped /429/ on every run: this success was a "429".
  EXPECT_EQ(
      classify_run(exited(0, "warning: HTTP 429 retried\n\nsession_id: 20260429_115247_a429bc")),
      RunClass::kSuccess);
}

TEST(MentionsRateLimit, OnlyStandalone429Tokens) {
  EXPECT_TRUE(mentions_rate_limit("HTTP 429: Error from provider"));
  EXPECT_TRUE(mentions_rate_limit("status=429"));
  EXPECT_TRUE(mentions_rate_limit("(429)"));
  EXPECT_FALSE(mentions_rate_limit("\nsession_id: 20260429_115247_a429bc\n"));
  EXPECT_FALSE(mentions_rate_limit("processed 14290 tokens"));
  EXPECT_FALSE(mentions_rate_limit("request id req_429abc failed"));
}

TEST(SessionId, LastStderrLineInDocumentedFormat) {
  EXPECT_EQ(parse_session_id("warn\n\nsession_id: 20260811_115247_084e47\n"),
            "20260811_115247_084e47");
  EXPECT_EQ(parse_session_id(
                "session_id: 20260811_115247_000001\nsession_id: 20260811_120000_0000ff\r\n"),
            "20260811_120000_0000ff");
  EXPECT_FALSE(parse_session_id("session_id: not-a-session\n"));
  EXPECT_FALSE(parse_session_id("my session_id: 20260811_115247_084e47"));
  EXPECT_FALSE(parse_session_id("session_id: 20260811_115247_084E47"));
}

TEST(StderrText, LastLinesAndDetailSkipTheSessionTrailer) {
  std::string err = "w1\n\nw2\nError: HTTP 429\n\nsession_id: 20260811_115247_084e47\n";
  EXPECT_EQ(last_lines(err, 3), "w1 | w2 | Error: HTTP 429");
  EXPECT_EQ(error_detail_of(err, 500), "w1\n\nw2\nError: HTTP 429");
  EXPECT_EQ(error_detail_of(err, 15), "Error: HTTP 429");
  // A cut never splits a code point.
  EXPECT_EQ(error_detail_of("\xc3\xa9\xc3\xa9", 3), "\xc3\xa9");
}

}  // namespace
}  // namespace hermes::task
