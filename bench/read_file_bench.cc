// SPDX-License-Identifier: MIT
// read_file against the upstream's method for the same page
// (`sed -n 'a,bp' FILE | cut -b1-N` plus `wc -l`, spawned through bash), in
// the same run: a 4 KB file, and a 2000-line page of a 1 MB file. Per-call
// latencies are reported as p50/p99 counters (microseconds).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <vector>

#include "core/config.h"
#include "core/paths.h"
#include "proc/run.h"
#include "registry/client_channel.h"
#include "registry/dispatcher.h"
#include "registry/registry.h"
#include "registry/session.h"

namespace hermes {
void register_read_file(Registry& registry);
namespace {

std::string make_file(const std::string& name, size_t bytes) {
  std::string path = (std::filesystem::temp_directory_path() / name).string();
  std::ofstream out(path, std::ios::binary);
  size_t written = 0;
  for (int i = 1; written < bytes; ++i) {
    std::string line = "    value_" + std::to_string(i) + " = compute(alpha, beta, gamma) + " +
                       std::to_string(i * 7) + ";\n";
    out << line;
    written += line.size();
  }
  return path;
}

class InProcess {
 public:
  InProcess() : config_(Config::from_yaml("")), services_{*config_, paths_}, dispatcher_(registry_, services_) {
    register_read_file(registry_);
    registry_.enable_toolsets({"file"});
  }
  // A fresh session per call, so the dedup stub never answers instead.
  Json read(const Json& args) {
    Session session("bench");
    CallContext ctx{session, services_, client_, dispatcher_, {}, Json()};
    return dispatcher_.call(*dispatcher_.find("read_file"), args, ctx).value;
  }

 private:
  std::unique_ptr<Config> config_;
  PathResolver paths_;
  Services services_;
  Registry registry_;
  Dispatcher dispatcher_;
  NullClientChannel client_;
};

std::string run_bash(const std::string& script) {
  proc::SpawnOptions options;
  options.argv = {"bash", "-c", script};
  auto child = proc::spawn(options);
  std::string out;
  if (!child) return out;
  proc::run_bounded(*child, {}, {}, [&](std::string_view bytes) { out.append(bytes); });
  return out;
}

void report(benchmark::State& state, std::vector<double>& us) {
  std::sort(us.begin(), us.end());
  if (us.empty()) return;
  state.counters["p50_us"] = us[us.size() / 2];
  state.counters["p99_us"] = us[std::min(us.size() - 1, us.size() * 99 / 100)];
}

template <class F>
void timed(benchmark::State& state, F&& f) {
  std::vector<double> us;
  for (auto _ : state) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
  }
  report(state, us);
}

std::string upstream_script(const std::string& path, int first, int last) {
  return "sed -n '" + std::to_string(first) + "," + std::to_string(last) + "p' '" + path +
         "' | cut -b1-8001; wc -l < '" + path + "'";
}

void BM_Read4KB_InProcess(benchmark::State& state) {
  static const std::string path = make_file("hermes-bench-4k.txt", 4096);
  InProcess tool;
  timed(state, [&] { benchmark::DoNotOptimize(tool.read(Json{{"path", path}})); });
}
BENCHMARK(BM_Read4KB_InProcess)->Unit(benchmark::kMicrosecond);

void BM_Read4KB_UpstreamSedCutWc(benchmark::State& state) {
  static const std::string path = make_file("hermes-bench-4k.txt", 4096);
  timed(state, [&] { benchmark::DoNotOptimize(run_bash(upstream_script(path, 1, 2000))); });
}
BENCHMARK(BM_Read4KB_UpstreamSedCutWc)->Unit(benchmark::kMicrosecond);

void BM_Page2000Of1MB_InProcess(benchmark::State& state) {
  static const std::string path = make_file("hermes-bench-1m.txt", 1 << 20);
  InProcess tool;
  timed(state, [&] { benchmark::DoNotOptimize(tool.read(Json{{"path", path}, {"offset", 5001}, {"limit", 2000}})); });
}
BENCHMARK(BM_Page2000Of1MB_InProcess)->Unit(benchmark::kMicrosecond);

void BM_Page2000Of1MB_UpstreamSedCutWc(benchmark::State& state) {
  static const std::string path = make_file("hermes-bench-1m.txt", 1 << 20);
  timed(state, [&] { benchmark::DoNotOptimize(run_bash(upstream_script(path, 5001, 7000))); });
}
BENCHMARK(BM_Page2000Of1MB_UpstreamSedCutWc)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace hermes

BENCHMARK_MAIN();
