// SPDX-License-Identifier: MIT
// The task toolset's own overhead. A full hermes_task dispatch against a
// stub agent (agent spawn + `sessions export` spawn + parse + cache write) is
// compared with the two bare runner spawns it cannot avoid; telemetry over a
// 1000-run cache and export parsing are measured on their own.
#include "tools/task/agent_runner.h"
#include "tools/task/iso_time.h"
#include "tools/task/session_export.h"
#include "tools/task/task_cache.h"
#include "tools/task/task_service.h"
#include "tools/task/telemetry.h"

#include <benchmark/benchmark.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace hermes::task {
namespace {

const std::string kSid = "20260811_115247_084e47";

std::string export_jsonl(int calls) {
  Json messages = Json::array();
  for (int i = 0; i < calls; ++i) {
    std::string id = "c" + std::to_string(i);
    messages.push_back(
        {{"role", "assistant"},
         {"tool_calls",
          Json::array({{{"id", id},
                        {"function",
                         {{"name", "terminal"}, {"arguments", R"({"command":"ls -la"})"}}}}})}});
    messages.push_back(
        {{"role", "tool"}, {"tool_call_id", id}, {"content", std::string(600, 'o')}});
  }
  return Json{{"id", kSid}, {"api_call_count", calls}, {"messages", messages}}.dump();
}

// A scratch HERMES_HOME with a stub agent; removed at exit.
struct Scratch {
  std::string dir;
  Scratch() {
    char tmpl[] = "/tmp/task-bench-XXXXXX";
    dir = ::mkdtemp(tmpl);
    std::ofstream(dir + "/export.jsonl") << export_jsonl(20) << "\n";
    std::ofstream(dir + "/hermes")
        << "#!/bin/sh\nif [ \"$1\" = sessions ]; then cat " << dir
        << "/export.jsonl; exit 0; fi\necho answer\necho >&2\necho 'session_id: " << kSid
        << "' >&2\n";
    ::chmod((dir + "/hermes").c_str(), 0755);
    std::ofstream(dir + "/auth.json") << R"({"credential_pool": {"gemini": [{"id": "a"}]}})";
  }
  ~Scratch() { std::filesystem::remove_all(dir); }
  TaskConfig config() const {
    TaskConfig c;
    c.hermes_bin = dir + "/hermes";
    c.auth_path = dir + "/auth.json";
    c.cache_dir = dir + "/cache";
    return c;
  }
};

void BM_HermesTaskDispatch(benchmark::State& state) {
  Scratch scratch;
  TaskConfig config = scratch.config();
  TaskService service(TaskDeps{make_process_runner(), now_epoch_ms});
  TaskArgs args;
  args.prompt = "summarize the notes";
  for (auto _ : state) {
    TaskOutcome out = service.run_task(args, config, {});
    if (!std::holds_alternative<TaskSuccess>(out)) state.SkipWithError("dispatch failed");
  }
}
BENCHMARK(BM_HermesTaskDispatch)->Unit(benchmark::kMillisecond)->UseRealTime();

// The floor: the same two processes spawned and read by the runner alone.
void BM_TwoBareSpawns(benchmark::State& state) {
  Scratch scratch;
  auto runner = make_process_runner();
  AgentRun chat{.argv = {scratch.dir + "/hermes", "chat"}};
  AgentRun exp{.argv = {scratch.dir + "/hermes", "sessions"}};
  for (auto _ : state) {
    benchmark::DoNotOptimize(runner->run(chat, {}));
    benchmark::DoNotOptimize(runner->run(exp, {}));
  }
}
BENCHMARK(BM_TwoBareSpawns)->Unit(benchmark::kMillisecond)->UseRealTime();

// One cache record: atomic_write's fsync of the file and its directory.
void BM_CacheWrite(benchmark::State& state) {
  Scratch scratch;
  TaskCache cache(scratch.dir + "/cache");
  TaskRecord r{.task_id = "1700000000000_abcdef", .result = std::string(2000, 'r')};
  for (auto _ : state) {
    if (!cache.write(r)) state.SkipWithError("cache write failed");
  }
}
BENCHMARK(BM_CacheWrite)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ParseExport(benchmark::State& state) {
  std::string jsonl = export_jsonl(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(parse_session_export(jsonl, kSid, {}));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * jsonl.size()));
}
BENCHMARK(BM_ParseExport)->Arg(50)->Arg(500)->Unit(benchmark::kMicrosecond);

void BM_TelemetryOver1000Runs(benchmark::State& state) {
  Scratch scratch;
  TaskCache cache(scratch.dir + "/cache");
  for (int i = 0; i < 1000; ++i) {
    TaskRecord r{.task_id = "17000000000" + std::to_string(10 + i) + "_abcdef",
                 .provider = "gemini",
                 .model = "gemini-3.1-flash-lite",
                 .output_mode = "digest",
                 .result = std::string(2000, 'r'),
                 .digest = Digest{4, 3, 8, {"terminal", "search_files"}},
                 .exit_code = i % 10 ? 0 : 1,
                 .duration_ms = 1000 + i,
                 .created_at = format_iso8601_ms(1'755'000'000'000 + i * 60'000LL)};
    if (!cache.write(r)) state.SkipWithError("cache write failed");
  }
  for (auto _ : state) benchmark::DoNotOptimize(aggregate_runs(cache.load_all(), {}));
}
BENCHMARK(BM_TelemetryOver1000Runs)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace hermes::task

BENCHMARK_MAIN();
