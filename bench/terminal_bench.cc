// SPDX-License-Identifier: MIT
// Terminal benchmarks: foreground round trips (`true`, `echo hi`) including
// the snapshot restore and re-dump, background poll latency, and capture
// throughput in MB/s.
#include "proc/run.h"
#include "registry/registry.h"
#include "testutil/tool_session.h"
#include "tools/process/process.h"
#include "tools/terminal/terminal.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <vector>

namespace hermes {

namespace {

// A session with terminal and process, in its own work dir.
class Env : public testing::ToolSession {
 public:
  Env() {
    terminal::register_terminal(registry());
    process::register_process(registry());
  }
};

// Reports the p50 and p99 of per-call wall time (ms) as counters.
void report_percentiles(benchmark::State& state, std::vector<double>& samples) {
  if (samples.empty()) return;
  std::sort(samples.begin(), samples.end());
  auto at = [&](double q) { return samples[static_cast<size_t>(q * (samples.size() - 1))]; };
  state.counters["p50_ms"] = at(0.50);
  state.counters["p99_ms"] = at(0.99);
}

void run_foreground(benchmark::State& state, const char* command) {
  Env env;
  env.call("terminal", {{"command", "true"}});  // bootstrap the snapshot once
  std::vector<double> samples;
  Json args{{"command", command}};
  for (auto _ : state) {
    auto start = std::chrono::steady_clock::now();
    Json r = env.call("terminal", args);
    samples.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
    benchmark::DoNotOptimize(r);
  }
  report_percentiles(state, samples);
}

void BM_ForegroundTrue(benchmark::State& state) { run_foreground(state, "true"); }
void BM_ForegroundEchoHi(benchmark::State& state) { run_foreground(state, "echo hi"); }

// The floor: spawning `bash -c true` with no snapshot or marker, to compare
// the wrapper's cost against on a loaded machine.
// range(0): 1 runs bash under a whole-tree supervisor, as local terminal
// commands do (the supervisor's fork is the difference).
void BM_BareBashSpawn(benchmark::State& state) {
  std::vector<double> samples;
  for (auto _ : state) {
    auto start = std::chrono::steady_clock::now();
    auto child = proc::spawn({.argv = {"bash", "-c", "true"}, .whole_tree = state.range(0) == 1});
    proc::run_bounded(*child, {}, {}, [](std::string_view) {});
    samples.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
  }
  report_percentiles(state, samples);
}

void BM_BackgroundPoll(benchmark::State& state) {
  Env env;
  Json started = env.call("terminal", {{"command", "sleep 600"}, {"background", true}});
  Json poll{{"action", "poll"}, {"session_id", started["session_id"]}};
  std::vector<double> samples;
  for (auto _ : state) {
    auto start = std::chrono::steady_clock::now();
    Json r = env.call("process", poll);
    samples.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
    benchmark::DoNotOptimize(r);
  }
  report_percentiles(state, samples);
}

void BM_CaptureThroughput(benchmark::State& state) {
  Env env;
  env.call("terminal", {{"command", "true"}});
  const int64_t bytes = 256LL << 20;
  Json args{{"command", "head -c " + std::to_string(bytes) + " /dev/zero"}, {"timeout", 120}};
  for (auto _ : state) {
    Json r = env.call("terminal", args);
    benchmark::DoNotOptimize(r);
  }
  state.SetBytesProcessed(state.iterations() * bytes);
}

BENCHMARK(BM_ForegroundTrue)->Unit(benchmark::kMillisecond)->Iterations(500);
BENCHMARK(BM_ForegroundEchoHi)->Unit(benchmark::kMillisecond)->Iterations(500);
BENCHMARK(BM_BareBashSpawn)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->Iterations(500);
BENCHMARK(BM_BackgroundPoll)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CaptureThroughput)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
}  // namespace hermes

BENCHMARK_MAIN();
