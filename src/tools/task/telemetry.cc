// SPDX-License-Identifier: MIT
// Aggregation over cache records, matching the reference's numbers.
#include "tools/task/telemetry.h"

#include "core/strings.h"
#include "tools/task/iso_time.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace hermes::task {
namespace {

double round_to(double value, double scale) { return std::round(value * scale) / scale; }

double rate_for(const std::string& model, const std::string& provider) {
  static const std::map<std::string, double> kModelRates = {{"gemini-3.1-flash-lite", 0.05},
                                                            {"gemini-2.5-flash-lite", 0.05},
                                                            {"gemini-2.5-flash", 0.08},
                                                            {"gemini-2.5-pro", 0.6},
                                                            {"gemini-2.0-flash", 0.08}};
  static const std::map<std::string, double> kProviderRates = {
      {"gemini", 0.1}, {"opencode", 0.02}, {"openai", 0.3}, {"anthropic", 0.6}};
  if (auto it = kModelRates.find(to_lower(model)); it != kModelRates.end()) return it->second;
  if (auto it = kProviderRates.find(to_lower(provider)); it != kProviderRates.end())
    return it->second;
  return 0.05;
}

bool in_window(const TaskRecord& r, const TelemetryWindow& w) {
  auto at = parse_iso8601_ms(r.created_at);
  if (!at) return true;
  auto since = w.since ? parse_iso8601_ms(*w.since) : std::nullopt;
  auto until = w.until ? parse_iso8601_ms(*w.until) : std::nullopt;
  if (since && *at < *since) return false;
  if (until && *at > *until) return false;
  return true;
}

// Counts in first-seen order, then ordered as a JS object's entries would be
// (array-index keys ascending first) and stably by count, largest first.
class Counter {
 public:
  void add(const std::string& key) {
    auto it = std::find_if(counts_.begin(), counts_.end(), [&](auto& e) { return e.first == key; });
    if (it == counts_.end()) {
      counts_.emplace_back(key, 1);
    } else {
      ++it->second;
    }
  }
  Breakdown sorted() const {
    Breakdown out = counts_;
    std::stable_sort(out.begin(), out.end(), [](auto& a, auto& b) {
      auto ia = index_key(a.first), ib = index_key(b.first);
      if (ia && ib) return *ia < *ib;
      return ia.has_value() && !ib.has_value();
    });
    std::stable_sort(out.begin(), out.end(), [](auto& a, auto& b) { return a.second > b.second; });
    return out;
  }

 private:
  static std::optional<int64_t> index_key(const std::string& key) {
    if (key.empty() || key.size() > 9 || (key.size() > 1 && key[0] == '0')) return std::nullopt;
    if (!std::all_of(key.begin(), key.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return std::nullopt;
    return std::stoll(key);
  }
  Breakdown counts_;
};

void add_digest(const Digest& d, TelemetryReport& report, Counter& tools) {
  ++report.with_digest;
  report.tool_calls += d.tool_call_count;
  report.api_calls += d.api_call_count.value_or(0);
  report.messages += d.message_count.value_or(0);
  for (const std::string& tool : d.tools_used) tools.add(tool);
}

void note_created(const std::string& at, TelemetryReport& report) {
  if (at.empty()) return;
  if (!report.earliest || at < *report.earliest) report.earliest = at;
  if (!report.latest || at > *report.latest) report.latest = at;
}

}  // namespace

double estimate_cost(const TaskRecord& record) {
  if (!record.digest || !record.digest->api_call_count || *record.digest->api_call_count == 0)
    return 0;
  double calls = static_cast<double>(*record.digest->api_call_count);
  return round_to(
      calls / 1000.0 * rate_for(record.model.value_or(""), record.provider.value_or("")), 1e4);
}

int64_t p95_nearest_rank(std::vector<int64_t> values) {
  values.erase(std::remove_if(values.begin(), values.end(), [](int64_t v) { return v < 0; }),
               values.end());
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  auto rank = static_cast<size_t>(std::ceil(0.95 * static_cast<double>(values.size())));
  return values[rank == 0 ? 0 : rank - 1];
}

TelemetryReport aggregate_runs(const std::vector<TaskRecord>& records,
                               const TelemetryWindow& window) {
  TelemetryReport report;
  report.window = window;
  Counter exits, providers, models, tools;
  std::vector<int64_t> durations;
  int64_t success = 0;
  double cost = 0;
  for (const TaskRecord& r : records) {
    if (!in_window(r, window)) continue;
    ++report.runs;
    note_created(r.created_at, report);
    if (!r.exit_code || *r.exit_code == 0) ++success;
    exits.add(r.exit_code ? std::to_string(*r.exit_code) : "null");
    providers.add(r.provider.value_or("unknown"));
    models.add(r.model.value_or("unknown"));
    if (r.duration_ms && *r.duration_ms >= 0) durations.push_back(*r.duration_ms);
    if (r.digest) add_digest(*r.digest, report, tools);
    cost += estimate_cost(r);
  }
  report.exit_codes = exits.sorted();
  report.providers = providers.sorted();
  report.models = models.sorted();
  report.tools = tools.sorted();
  double total = 0;
  for (int64_t d : durations) total += static_cast<double>(d);
  report.success_rate =
      report.runs ? round_to(static_cast<double>(success) / static_cast<double>(report.runs), 1e3)
                  : 0;
  report.duration_total = round_to(total, 10);
  report.duration_avg =
      durations.empty() ? 0 : round_to(total / static_cast<double>(durations.size()), 10);
  report.duration_p95 = p95_nearest_rank(durations);
  report.estimated_cost_usd = round_to(cost, 1e4);
  return report;
}

}  // namespace hermes::task
