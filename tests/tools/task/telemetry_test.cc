// SPDX-License-Identifier: MIT
#include "tools/task/telemetry.h"

#include <gtest/gtest.h>

namespace hermes::task {
namespace {

TaskRecord run(const std::string& created, std::optional<int64_t> exit, const std::string& provider,
               const std::string& model, std::optional<int64_t> duration,
               std::optional<Digest> digest = std::nullopt) {
  TaskRecord r;
  r.task_id = "t" + created;
  r.created_at = created;
  r.exit_code = exit;
  r.provider = provider;
  r.model = model;
  r.duration_ms = duration;
  r.digest = std::move(digest);
  return r;
}

Digest digest(int64_t tools, int64_t api, int64_t messages, std::vector<std::string> used) {
  return Digest{tools, api, messages, std::move(used)};
}

std::vector<TaskRecord> sample() {
  return {
      run("2026-08-01T10:00:00.000Z", 0, "gemini", "gemini-3.1-flash-lite", 1000,
          digest(4, 3, 8, {"search_files", "terminal"})),
      run("2026-08-05T10:00:00.000Z", 1, "gemini", "gemini-3.1-flash-lite", 3000),
      run("2026-08-10T10:00:00.000Z", std::nullopt, "opencode-zen", "mimo-v2.5-free", 2000,
          digest(1, 2000, 2, {"terminal"})),
  };
}

TEST(Telemetry, BreakdownsAndTotals) {
  TelemetryReport r = aggregate_runs(sample(), {});
  EXPECT_EQ(r.runs, 3);
  EXPECT_DOUBLE_EQ(r.success_rate, 0.667);
  EXPECT_EQ(r.exit_codes, (Breakdown{{"0", 1}, {"1", 1}, {"null", 1}}));
  EXPECT_EQ(r.providers, (Breakdown{{"gemini", 2}, {"opencode-zen", 1}}));
  EXPECT_EQ(r.tool_calls, 5);
  EXPECT_EQ(r.api_calls, 2003);
  EXPECT_EQ(r.messages, 10);
  EXPECT_EQ(r.with_digest, 2);
  EXPECT_EQ(r.tools, (Breakdown{{"terminal", 2}, {"search_files", 1}}));
  EXPECT_DOUBLE_EQ(r.duration_total, 6000);
  EXPECT_DOUBLE_EQ(r.duration_avg, 2000);
  EXPECT_EQ(r.duration_p95, 3000);
  // 3 calls × 0.05/1k on the model rate + 2000 × default 0.05/1k.
  EXPECT_DOUBLE_EQ(r.estimated_cost_usd, 0.0002 + 0.1);
  EXPECT_EQ(r.earliest, "2026-08-01T10:00:00.000Z");
  EXPECT_EQ(r.latest, "2026-08-10T10:00:00.000Z");
}

TEST(Telemetry, WindowIsInclusiveAndKeepsUndatedRuns) {
  auto records = sample();
  records.push_back(run("", 0, "gemini", "x", 5));
  TelemetryReport r = aggregate_runs(records, {"2026-08-05T10:00:00Z", "2026-08-10T10:00:00Z"});
  EXPECT_EQ(r.runs, 3);  // 08-05, 08-10 and the undated one
  EXPECT_EQ(r.earliest, "2026-08-05T10:00:00.000Z");
  TelemetryReport until = aggregate_runs(sample(), {std::nullopt, "2026-08-02"});
  EXPECT_EQ(until.runs, 1);
}

TEST(Telemetry, EmptyCache) {
  TelemetryReport r = aggregate_runs({}, {});
  EXPECT_EQ(r.runs, 0);
  EXPECT_EQ(r.success_rate, 0);
  EXPECT_EQ(r.duration_p95, 0);
  EXPECT_FALSE(r.earliest);
}

TEST(Telemetry, P95ByNearestRank) {
  EXPECT_EQ(p95_nearest_rank({}), 0);
  EXPECT_EQ(p95_nearest_rank({7}), 7);
  std::vector<int64_t> hundred;
  for (int i = 100; i >= 1; --i) hundred.push_back(i);
  EXPECT_EQ(p95_nearest_rank(hundred), 95);
  EXPECT_EQ(p95_nearest_rank(
                {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 1000}),
            20);
}

TEST(Telemetry, CostUsesModelThenProviderThenDefaultRate) {
  EXPECT_DOUBLE_EQ(estimate_cost(run("", 0, "gemini", "gemini-2.5-pro", 1, digest(0, 1000, 0, {}))),
                   0.6);
  EXPECT_DOUBLE_EQ(estimate_cost(run("", 0, "Gemini", "unknown", 1, digest(0, 1000, 0, {}))), 0.1);
  EXPECT_DOUBLE_EQ(estimate_cost(run("", 0, "x", "y", 1, digest(0, 1000, 0, {}))), 0.05);
  EXPECT_DOUBLE_EQ(estimate_cost(run("", 0, "x", "y", 1)), 0);
}

}  // namespace
}  // namespace hermes::task
