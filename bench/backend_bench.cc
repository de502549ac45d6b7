// SPDX-License-Identifier: MIT
// Per-call latency on each backend: read_file of a 4 KB file, `terminal
// true`, and write_file of a 4 KB file with checkpoints off and on (what a
// kept tool edit costs there; on ssh and docker-elsewhere, commands on the
// target) (p50/p99 over the run), plus the first call of a fresh session on
// ssh (connection setup: control master, snapshot bootstrap).
// The ssh target is a throwaway sshd on loopback (needs root); docker runs
// through the test shim (bubblewrap), so its figures are not a real engine's.
#include "registry/registry.h"
#include "testutil/backend_targets.h"
#include "testutil/temp_dir.h"
#include "testutil/tool_session.h"
#include "tools/read_file/read_file.h"
#include "tools/terminal/terminal.h"
#include "tools/write_file/write_file.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include "checkpoint/checkpoints.h"

namespace hermes {

namespace {

using testing::BackendKind;

// A session on `kind` with read_file and terminal, in its own work dir.
class Env : public testing::ToolSession {
 public:
  explicit Env(BackendKind kind)
      : ToolSession([kind](const std::string& work) { return testing::backend_yaml(kind, work); }) {
    read_file::register_read_file(registry());
    terminal::register_terminal(registry());
    write_file::register_write_file(registry());
  }
};

double elapsed_ms(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

void report_percentiles(benchmark::State& state, std::vector<double>& samples) {
  if (samples.empty()) return;
  std::sort(samples.begin(), samples.end());
  auto at = [&](double q) { return samples[static_cast<size_t>(q * (samples.size() - 1))]; };
  state.counters["p50_ms"] = at(0.50);
  state.counters["p99_ms"] = at(0.99);
}

bool skip_if_unavailable(benchmark::State& state, BackendKind kind) {
  std::string why = testing::unavailable_reason(kind);
  if (why.empty()) return false;
  state.SkipWithError(why.c_str());
  return true;
}

// Times `tool(args)` per iteration after one warm-up call.
void run_calls(benchmark::State& state, BackendKind kind, const char* tool, bool read) {
  state.SetLabel(testing::kind_name(kind));
  if (skip_if_unavailable(state, kind)) return;
  if (kind == BackendKind::kDocker) testing::use_docker_shim();
  Env env(kind);
  const testing::TempDir& work = env.work();
  work.write("page.txt", std::string(4096, 'x'));
  Json args = read ? Json{{"path", work.file("page.txt")}} : Json{{"command", "true"}};
  Json warm = env.call(tool, args);
  if (warm.contains("error") && !warm["error"].is_null()) {
    state.SkipWithError(warm.dump().c_str());
    return;
  }
  std::vector<double> samples;
  int round = 0;
  for (auto _ : state) {
    if (read) {
      // A changed file and a reset loop counter: every call is a real read,
      // not the unchanged-file stub.
      state.PauseTiming();
      work.write("page.txt", std::string(4096, "xy"[++round % 2]));
      env.session().notify_other_tool_call();
      state.ResumeTiming();
    }
    auto start = std::chrono::steady_clock::now();
    Json r = env.call(tool, args);
    samples.push_back(elapsed_ms(start));
    if (read && !r.contains("content")) {
      state.SkipWithError(r.dump().c_str());
      return;
    }
    benchmark::DoNotOptimize(r);
  }
  report_percentiles(state, samples);
}

void BM_ReadFile(benchmark::State& state) {
  run_calls(state, static_cast<BackendKind>(state.range(0)), "read_file", true);
}
void BM_TerminalTrue(benchmark::State& state) {
  run_calls(state, static_cast<BackendKind>(state.range(0)), "terminal", false);
}

// write_file of a 4 KB file (new content each time; range 2 = 0) or
// `terminal true` (1), with the dispatcher's checkpoint around it (range 1
// = 1) or without (0).
void BM_Checkpointed(benchmark::State& state) {
  auto kind = static_cast<BackendKind>(state.range(0));
  bool keep = state.range(1) != 0;
  bool edit = state.range(2) == 0;
  state.SetLabel(testing::kind_name(kind) + (edit ? " write_file" : " terminal") +
                 (keep ? ", checkpoints on" : ", checkpoints off"));
  if (skip_if_unavailable(state, kind)) return;
  if (kind == BackendKind::kDocker) testing::use_docker_shim();
  Env env(kind);
  checkpoint::Checkpoints store(env.home().path() + "/checkpoints");
  if (keep) env.keep_checkpoints(&store);
  std::string path = env.work().file("page.txt");
  std::vector<double> samples;
  int round = 0;
  for (auto _ : state) {
    Json args = edit ? Json{{"path", path}, {"content", std::string(4096, "xyz"[++round % 3])}}
                     : Json{{"command", "true"}};
    auto start = std::chrono::steady_clock::now();
    Json r = env.call(edit ? "write_file" : "terminal", args);
    samples.push_back(elapsed_ms(start));
    if (r.contains("error") && !r["error"].is_null()) {
      state.SkipWithError(r.dump().c_str());
      return;
    }
  }
  if (keep && edit && store.store_bytes() == 0) state.SkipWithError("no edit was kept");
  report_percentiles(state, samples);
}

// A fresh session's first `terminal true` on ssh with no control master yet:
// TCP + key exchange + auth, the $HOME probe, the snapshot bootstrap and the
// command. Each iteration uses its own control-socket directory.
void BM_SshFirstCall(benchmark::State& state) {
  if (skip_if_unavailable(state, BackendKind::kSsh)) return;
  testing::TempDir root;
  const char* saved = std::getenv("TMPDIR");
  std::string saved_tmp = saved ? saved : "";
  std::vector<double> samples;
  int run = 0;
  for (auto _ : state) {
    std::string tmp = root.path() + "/run" + std::to_string(run++);
    std::filesystem::create_directories(tmp);
    ::setenv("TMPDIR", tmp.c_str(), 1);
    auto start = std::chrono::steady_clock::now();
    {
      Env env(BackendKind::kSsh);
      benchmark::DoNotOptimize(env.call("terminal", {{"command", "true"}}));
      samples.push_back(elapsed_ms(start));
      state.PauseTiming();
    }
    // Close the master this iteration opened (it would persist 300 s).
    std::string close = "for s in " + tmp +
                        "/hermes-ssh/*.sock; do ssh -o ControlPath=\"$s\" "
                        "-O exit x; done >/dev/null 2>&1";
    benchmark::DoNotOptimize(std::system(close.c_str()));
    state.ResumeTiming();
  }
  if (saved_tmp.empty())
    ::unsetenv("TMPDIR");
  else
    ::setenv("TMPDIR", saved_tmp.c_str(), 1);
  report_percentiles(state, samples);
}

void all_kinds(benchmark::internal::Benchmark* b) {
  for (BackendKind kind : testing::all_backend_kinds()) {
    b->Arg(static_cast<int>(kind));
  }
}

BENCHMARK(BM_ReadFile)
    ->Apply(all_kinds)
    ->Iterations(200)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TerminalTrue)
    ->Apply(all_kinds)
    ->Iterations(100)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Checkpointed)
    ->Apply([](benchmark::internal::Benchmark* b) {
      for (BackendKind kind : testing::all_backend_kinds()) {
        for (int tool : {0, 1}) {
          for (int keep : {0, 1}) b->Args({static_cast<int>(kind), keep, tool});
        }
      }
    })
    ->Iterations(50)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SshFirstCall)->Iterations(5)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace hermes

BENCHMARK_MAIN();
