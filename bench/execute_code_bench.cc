// SPDX-License-Identifier: MIT
// execute_code costs: the RPC round trip per tool call as a script sees it
// (p50/p99 over 10,000 calls to a cheap tool; per-call interpreter and
// kernel), a script making 1,000 read_file calls, one whole per-call run of
// `print(1)` (staging + interpreter) next to a bare `python3 -c 'print(1)'`,
// `print(1)` in a warm kernel and as a session's first call (kernel start);
// the same round trip and `print(1)` over the file RPC of non-local backends.
#include "core/config.h"
#include "core/paths.h"
#include "proc/run.h"
#include "proc/spawn.h"
#include "registry/client_channel.h"
#include "registry/dispatcher.h"
#include "registry/registry.h"
#include "registry/session.h"
#include "tools/execute_code/execute_code.h"
#include "tools/execute_code/interpreter.h"
#include "tools/read_file/read_file.h"

#include <benchmark/benchmark.h>

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

namespace hermes {
namespace {

// A session with read_file, a cheap `web_search` fake and execute_code.
class Bench {
 public:
  // `extra_yaml` is appended to the configuration.
  explicit Bench(const std::string& extra_yaml = "")
      : dir_(make_dir()),
        config_(Config::from_yaml("code_execution:\n  max_tool_calls: 20000\n" + extra_yaml, dir_)),
        services_{*config_, paths_},
        dispatcher_(registry_, services_) {
    read_file::register_read_file(registry_);
    registry_.add(registry::ToolSpec{
        .name = "web_search",
        .toolset = "web",
        .description = "Cheap fake.",
        .input_schema =
            Json::parse(R"({"properties":{"query":{"type":"string"}},"required":["query"]})"),
        .run = [](const Json&, registry::CallContext&) {
          return registry::ToolReply{{{"ok", true}}};
        }});
    execute_code::register_execute_code(registry_);
    // Distinct files: read_file's repeat guard would stub a file read 1,000 times.
    for (int i = 0; i < 1000; ++i) {
      std::ofstream(dir_ + "/f" + std::to_string(i) + ".txt") << "one\ntwo\nthree\n";
    }
  }
  ~Bench() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  // Each run gets a fresh session: read_file would answer a re-read of an
  // unchanged file with a short stub.
  Json run(const std::string& code) {
    registry::Session session("bench");
    return run_in(session, code);
  }
  // A run in `session` (with the kernel on: in that session's kernel).
  Json run_in(registry::Session& session, const std::string& code) {
    session.set_cwd(dir_);
    registry::CallContext ctx{session, services_, client_, dispatcher_, {}, Json()};
    return dispatcher_.call(*dispatcher_.find("execute_code"), {{"code", code}}, ctx).value;
  }

 private:
  static std::string make_dir() {
    std::string dir = "/tmp/hermes-bench-XXXXXX";
    if (!::mkdtemp(dir.data())) throw std::runtime_error("mkdtemp");
    return dir;
  }
  std::string dir_;
  std::unique_ptr<Config> config_;
  PathResolver paths_;
  registry::Services services_;
  registry::Registry registry_;
  registry::Dispatcher dispatcher_;
  registry::NullClientChannel client_;
};

// The script times each call itself and prints `p50 p99` in microseconds.
constexpr const char* kRoundTrips =
    "import time\n"
    "from hermes_tools import web_search\n"
    "web_search('warm')\n"
    "samples = []\n"
    "for i in range(10000):\n"
    "    t = time.perf_counter_ns()\n"
    "    web_search('q')\n"
    "    samples.append(time.perf_counter_ns() - t)\n"
    "samples.sort()\n"
    "print(samples[5000] / 1000, samples[9900] / 1000)\n";

// The per-call interpreter (docs/tools/execute_code.md, The run).
constexpr const char* kPerCall = "  kernel: false\n";

// state.range(0): 1 in the session's kernel, 0 in a per-call interpreter.
void BM_RpcRoundTrip(benchmark::State& state) {
  Bench bench(state.range(0) ? "" : kPerCall);
  double p50 = 0, p99 = 0;
  for (auto _ : state) {
    Json result = bench.run(kRoundTrips);
    std::istringstream(result.value("output", "")) >> p50 >> p99;
  }
  state.counters["p50_us"] = p50;
  state.counters["p99_us"] = p99;
}
BENCHMARK(BM_RpcRoundTrip)->Arg(0)->Arg(1)->Iterations(1)->Unit(benchmark::kMillisecond);

void BM_ThousandReadFileCalls(benchmark::State& state) {
  Bench bench;
  for (auto _ : state) {
    Json result = bench.run(
        "from hermes_tools import read_file\n"
        "n = sum(read_file(f'f{i}.txt')['total_lines'] for i in range(1000))\n"
        "print(n)");
    if (result.value("output", "") != "3000\n") state.SkipWithError(dump_json(result).c_str());
  }
}
BENCHMARK(BM_ThousandReadFileCalls)->Unit(benchmark::kMillisecond)->MinTime(2.0)->UseRealTime();

// A whole per-call run: staging, RPC server, supervisor, interpreter.
void BM_PrintOne(benchmark::State& state) {
  Bench bench(kPerCall);
  for (auto _ : state) {
    if (bench.run("print(1)").value("output", "") != "1\n") state.SkipWithError("wrong output");
  }
}
BENCHMARK(BM_PrintOne)->Unit(benchmark::kMillisecond)->MinTime(2.0)->UseRealTime();

// A warm kernel: one session, its kernel started before the timing.
void BM_KernelWarmPrintOne(benchmark::State& state) {
  Bench bench;
  registry::Session session("bench");
  bench.run_in(session, "print(0)");
  for (auto _ : state) {
    if (bench.run_in(session, "print(1)").value("output", "") != "1\n") {
      state.SkipWithError("wrong output");
    }
  }
}
BENCHMARK(BM_KernelWarmPrintOne)->Unit(benchmark::kMillisecond)->MinTime(2.0)->UseRealTime();

// A session's first call: its kernel starts, then runs the cell; the
// session's end kills it.
void BM_KernelFirstCall(benchmark::State& state) {
  Bench bench;
  for (auto _ : state) {
    if (bench.run("print(1)").value("output", "") != "1\n") state.SkipWithError("wrong output");
  }
}
BENCHMARK(BM_KernelFirstCall)->Unit(benchmark::kMillisecond)->MinTime(2.0)->UseRealTime();

// The same interpreter started bare, for the overhead of staging, RPC server
// and supervisor over plain interpreter start-up.
void BM_BarePythonPrintOne(benchmark::State& state) {
  std::string python = execute_code::system_python();
  for (auto _ : state) {
    auto child = proc::spawn(proc::SpawnOptions{.argv = {python, "-c", "print(1)"}});
    if (!child) {
      state.SkipWithError("spawn failed");
      break;
    }
    proc::run_bounded(*child, {}, {}, [](std::string_view) {});
  }
}
BENCHMARK(BM_BarePythonPrintOne)->Unit(benchmark::kMillisecond)->MinTime(2.0)->UseRealTime();

// The file RPC (docs/tools/execute_code.md) on the local backend with portable
// files: every host step is a bash command, as on a remote target.
constexpr const char* kPortable = "terminal:\n  portable_files: true\n";

// p50/p99 over 50 calls: the stub's 50 ms first poll and the host's 100 ms
// cadence dominate, so few samples suffice.
void BM_FileRpcRoundTrip(benchmark::State& state) {
  Bench bench(kPortable);
  double p50 = 0, p99 = 0;
  for (auto _ : state) {
    Json result = bench.run(
        "import time\n"
        "from hermes_tools import web_search\n"
        "web_search('warm')\n"
        "samples = []\n"
        "for i in range(50):\n"
        "    t = time.perf_counter_ns()\n"
        "    web_search('q')\n"
        "    samples.append(time.perf_counter_ns() - t)\n"
        "samples.sort()\n"
        "print(samples[25] / 1000, samples[49] / 1000)\n");
    std::istringstream(result.value("output", "")) >> p50 >> p99;
  }
  state.counters["p50_us"] = p50;
  state.counters["p99_us"] = p99;
}
BENCHMARK(BM_FileRpcRoundTrip)->Iterations(1)->Unit(benchmark::kMillisecond);

void BM_FileRpcPrintOne(benchmark::State& state) {
  Bench bench(kPortable);
  for (auto _ : state) {
    if (bench.run("print(1)").value("output", "") != "1\n") state.SkipWithError("wrong output");
  }
}
BENCHMARK(BM_FileRpcPrintOne)->Unit(benchmark::kMillisecond)->MinTime(2.0)->UseRealTime();

}  // namespace
}  // namespace hermes

BENCHMARK_MAIN();
