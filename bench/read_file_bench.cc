// SPDX-License-Identifier: MIT
// read_file against the upstream's method for the same page
// (`sed -n 'a,bp' FILE | cut -b1-N` plus `wc -l`, spawned through bash), in
// the same run: a 4 KB file, and a 2000-line page of a 1 MB file. Per-call
// latencies are reported as p50/p99 counters (microseconds).
#include "core/config.h"
#include "core/paths.h"
#include "json/json.h"
#include "proc/run.h"
#include "registry/client_channel.h"
#include "registry/dispatcher.h"
#include "registry/registry.h"
#include "registry/session.h"
#include "tools/read_file/read_file.h"

#include <benchmark/benchmark.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <vector>

namespace hermes {
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

// `bytes` of prose in 72-column lines, like the shared MCP harness's
// read_small file.
std::string make_prose_file(const std::string& name, size_t bytes) {
  const std::vector<std::string> words = {"the",   "quick", "brown", "fox",   "jumps",
                                          "over",  "lazy",  "dog",   "alpha", "beta",
                                          "gamma", "delta", "index", "table", "return"};
  std::string path = (std::filesystem::temp_directory_path() / name).string();
  std::ofstream out(path, std::ios::binary);
  std::string line;
  for (size_t i = 0, written = 0; written < bytes; ++i) {
    const std::string& word = words[(i * 7 + i / 5) % words.size()];
    if (line.size() + word.size() + 1 > 72) {
      out << line << '\n';
      written += line.size() + 1;
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  return path;
}

class InProcess {
 public:
  InProcess()
      : config_(Config::from_yaml("")),
        services_{*config_, paths_},
        dispatcher_(registry_, services_) {
    read_file::register_read_file(registry_);
    registry_.enable_toolsets({"file"});
  }
  // One session for kReadsPerSession calls, as in a server. The caller
  // varies each call's page (its `offset` or `limit`) so that within a
  // session the dedup stub never answers instead of a read.
  static constexpr int kReadsPerSession = 1000;
  Json read(const Json& args) {
    if (calls_++ % kReadsPerSession == 0) session_ = std::make_unique<registry::Session>("bench");
    registry::CallContext ctx{*session_, services_, client_, dispatcher_, {}, Json()};
    return dispatcher_.call(*dispatcher_.find("read_file"), args, ctx).value;
  }

 private:
  std::unique_ptr<Config> config_;
  PathResolver paths_;
  registry::Services services_;
  registry::Registry registry_;
  registry::Dispatcher dispatcher_;
  registry::NullClientChannel client_;
  std::unique_ptr<registry::Session> session_;
  int calls_ = 0;
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
    us.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
  }
  report(state, us);
}

std::string upstream_script(const std::string& path, int first, int last) {
  return "sed -n '" + std::to_string(first) + "," + std::to_string(last) + "p' '" + path +
         "' | cut -b1-8001; wc -l < '" + path + "'";
}

// Whole reads of the small file at `path`, in-process.
void read_whole_in_process(benchmark::State& state, const std::string& path) {
  InProcess tool;
  int i = 0;
  timed(state, [&] {
    // Every limit from 1001 to 2000 shows the whole file.
    const int limit = 1001 + i++ % InProcess::kReadsPerSession;
    benchmark::DoNotOptimize(tool.read(Json{{"path", path}, {"limit", limit}}));
  });
}

void BM_Read4KB_InProcess(benchmark::State& state) {
  static const std::string path = make_file("hermes-bench-4k.txt", 4096);
  read_whole_in_process(state, path);
}
BENCHMARK(BM_Read4KB_InProcess)->Unit(benchmark::kMicrosecond);

void BM_Read4KBProse_InProcess(benchmark::State& state) {
  static const std::string path = make_prose_file("hermes-bench-4k-prose.txt", 4096);
  read_whole_in_process(state, path);
}
BENCHMARK(BM_Read4KBProse_InProcess)->Unit(benchmark::kMicrosecond);

void BM_Read4KB_UpstreamSedCutWc(benchmark::State& state) {
  static const std::string path = make_file("hermes-bench-4k.txt", 4096);
  timed(state, [&] { benchmark::DoNotOptimize(run_bash(upstream_script(path, 1, 2000))); });
}
BENCHMARK(BM_Read4KB_UpstreamSedCutWc)->Unit(benchmark::kMicrosecond);

void BM_Page2000Of1MB_InProcess(benchmark::State& state) {
  static const std::string path = make_file("hermes-bench-1m.txt", 1 << 20);
  InProcess tool;
  int i = 0;
  timed(state, [&] {
    const int offset = 5001 + i++ % InProcess::kReadsPerSession;
    benchmark::DoNotOptimize(tool.read(Json{{"path", path}, {"offset", offset}, {"limit", 2000}}));
  });
}
BENCHMARK(BM_Page2000Of1MB_InProcess)->Unit(benchmark::kMicrosecond);

void BM_Page2000Of1MB_UpstreamSedCutWc(benchmark::State& state) {
  static const std::string path = make_file("hermes-bench-1m.txt", 1 << 20);
  timed(state, [&] { benchmark::DoNotOptimize(run_bash(upstream_script(path, 5001, 7000))); });
}
BENCHMARK(BM_Page2000Of1MB_UpstreamSedCutWc)->Unit(benchmark::kMicrosecond);

// `hermes-tools mcp` as a child: newline-delimited JSON-RPC over two pipes,
// stderr to /dev/null. The binary is $HERMES_TOOLS_BIN or the one next to
// this build's bench folder.
class McpChild {
 public:
  McpChild() {
    const char* env = std::getenv("HERMES_TOOLS_BIN");
    std::string bin =
        env ? env
            : (std::filesystem::read_symlink("/proc/self/exe").parent_path().parent_path() /
               "src/cli/hermes-tools")
                  .string();
    int in[2], out[2];
    if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0) return;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    char* argv[] = {bin.data(), const_cast<char*>("mcp"), nullptr};
    ok_ = ::posix_spawn(&pid_, bin.c_str(), &actions, nullptr, argv, environ) == 0;
    posix_spawn_file_actions_destroy(&actions);
    ::close(in[0]);
    ::close(out[1]);
    to_ = in[1];
    from_ = ::fdopen(out[0], "r");
    send(
        R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}})");
    receive();
    send(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  }
  ~McpChild() {
    if (to_ >= 0) ::close(to_);
    if (from_) std::fclose(from_);
    if (pid_ > 0) ::waitpid(pid_, nullptr, 0);
  }
  bool ok() const { return ok_ && from_; }
  void send(const std::string& line) {
    std::string framed = line + "\n";
    benchmark::DoNotOptimize(::write(to_, framed.data(), framed.size()));
  }
  std::string receive() {
    char* line = nullptr;
    size_t cap = 0;
    ssize_t n = ::getline(&line, &cap, from_);
    std::string out = n > 0 ? std::string(line, static_cast<size_t>(n)) : "";
    std::free(line);
    return out;
  }

 private:
  pid_t pid_ = -1;
  int to_ = -1;
  FILE* from_ = nullptr;
  bool ok_ = false;
};

// A read of a whole 4 KB file. The file and the limit change from call to
// call, so no (path, limit) pair comes back within 100,000 calls and every
// answer is a real read, never the dedup stub (each file has under 100 lines,
// so every page is all of it).
std::string read_request(int id) {
  static const std::vector<std::string> paths = [] {
    std::vector<std::string> made;
    for (int i = 0; i < 64; ++i) {
      made.push_back(make_file("hermes-bench-4k-" + std::to_string(i) + ".txt", 4096));
    }
    return made;
  }();
  Json args{{"path", paths[static_cast<size_t>(id) % paths.size()]},
            {"limit", 100 + (id / static_cast<int>(paths.size())) % 1900}};
  Json call{{"jsonrpc", "2.0"},
            {"id", id},
            {"method", "tools/call"},
            {"params", {{"name", "read_file"}, {"arguments", args}}}};
  return call.dump();
}

void BM_Read4KB_McpStdio(benchmark::State& state) {
  McpChild child;
  if (!child.ok()) {
    state.SkipWithError("hermes-tools not found (set HERMES_TOOLS_BIN)");
    return;
  }
  int id = 1;
  timed(state, [&] {
    child.send(read_request(id++));
    benchmark::DoNotOptimize(child.receive());
  });
}
BENCHMARK(BM_Read4KB_McpStdio)->Unit(benchmark::kMicrosecond)->Iterations(1500);

// Throughput with range(0) calls in flight, as an agent running parallel tool
// calls keeps them: each answer received sends the next request. items/s is
// calls per second.
void BM_Read4KB_McpStdio_InFlight(benchmark::State& state) {
  McpChild child;
  if (!child.ok()) {
    state.SkipWithError("hermes-tools not found (set HERMES_TOOLS_BIN)");
    return;
  }
  const int window = static_cast<int>(state.range(0));
  int id = 1;
  for (int i = 0; i < window; ++i) child.send(read_request(id++));
  for (auto _ : state) {
    benchmark::DoNotOptimize(child.receive());
    child.send(read_request(id++));
  }
  for (int i = 0; i < window; ++i) child.receive();
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Read4KB_McpStdio_InFlight)
    ->Arg(1)
    ->Arg(8)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime()
    ->Iterations(20000);

}  // namespace
}  // namespace hermes

BENCHMARK_MAIN();
