// SPDX-License-Identifier: MIT
// hermes_telemetry's arithmetic: a created_at window over cached runs, the
// breakdowns, duration stats (p95 by nearest rank) and the rough cost.
#pragma once

#include "tools/task/task_cache.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hermes::task {

struct TelemetryWindow {
  std::optional<std::string> since;  // inclusive ISO-8601 bounds; an
  std::optional<std::string> until;  // unparseable bound filters nothing
};

// Key → runs, most frequent first (ties in the reference's key order).
using Breakdown = std::vector<std::pair<std::string, int64_t>>;

struct TelemetryReport {
  TelemetryWindow window;
  std::optional<std::string> earliest;
  std::optional<std::string> latest;
  int64_t runs = 0;
  double success_rate = 0;  // exit 0 or null, 3 decimals
  Breakdown exit_codes;     // "null" for a missing exit code
  Breakdown providers;      // "unknown" when missing
  Breakdown models;
  int64_t tool_calls = 0;
  int64_t api_calls = 0;
  int64_t messages = 0;
  int64_t with_digest = 0;
  Breakdown tools;  // runs that used each tool
  double duration_total = 0;
  double duration_avg = 0;  // 1 decimal
  int64_t duration_p95 = 0;
  double estimated_cost_usd = 0;  // 4 decimals; always an estimate
};

// Records without a parseable created_at are always inside the window.
TelemetryReport aggregate_runs(const std::vector<TaskRecord>& records,
                               const TelemetryWindow& window);

// USD for one run: api_call_count / 1000 × a per-model (else per-provider,
// else default 0.05) rate, rounded to 4 decimals; 0 without a digest.
double estimate_cost(const TaskRecord& record);

// sorted[ceil(0.95 n) − 1] of the finite non-negative values; 0 when empty.
int64_t p95_nearest_rank(std::vector<int64_t> values);

}  // namespace hermes::task
