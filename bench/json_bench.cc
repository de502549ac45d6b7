// SPDX-License-Identifier: MIT
// parse_json against the number of keys in one object: the
// time per key should stay flat as the object grows. Json::parse, whose
// ordered map scans every member on each insert, is alongside for the
// quadratic curve the bounded parser left behind.
#include "json/json_parse.h"

#include <benchmark/benchmark.h>

#include <string>

namespace {

std::string object_text(int64_t keys) {
  std::string text = "{";
  for (int64_t i = 0; i < keys; ++i)
    text += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":" + std::to_string(i);
  return text + "}";
}

void BM_ParseJsonKeys(benchmark::State& state) {
  const std::string text = object_text(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(hermes::parse_json(text));
  state.SetItemsProcessed(state.iterations() * state.range(0));
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(text.size()));
}
BENCHMARK(BM_ParseJsonKeys)
    ->ArgName("keys")
    ->RangeMultiplier(4)
    ->Range(1 << 6, 1 << 20)
    ->Unit(benchmark::kMillisecond);

// Stops at 16,384 keys: the curve is clear by then, and the next steps take
// seconds to minutes.
void BM_NlohmannOrderedKeys(benchmark::State& state) {
  const std::string text = object_text(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(hermes::Json::parse(text));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_NlohmannOrderedKeys)
    ->ArgName("keys")
    ->RangeMultiplier(4)
    ->Range(1 << 6, 1 << 14)
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
