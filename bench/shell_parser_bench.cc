// SPDX-License-Identifier: MIT
// The shell reader and the whole approval check on the everyday corpus
// (tests/tools/approval/corpus/everyday.txt): commands per second.
#include "tools/approval/dangerous_command.h"

#include <benchmark/benchmark.h>

#include <fstream>
#include <string>
#include <vector>

#include "shell/analyze.h"

namespace hermes {
namespace {

const std::vector<std::string>& everyday() {
  static const std::vector<std::string> commands = [] {
    std::vector<std::string> out;
    std::ifstream in(HERMES_APPROVAL_CORPUS_DIR "/everyday.txt");
    for (std::string line; std::getline(in, line);) {
      if (line.empty() || line[0] == '#') continue;
      for (size_t pos; (pos = line.find("\u23ce")) != std::string::npos;)
        line.replace(pos, 3, "\n");
      out.push_back(line);
    }
    return out;
  }();
  return commands;
}

void BM_ParseEveryday(benchmark::State& state) {
  const auto& commands = everyday();
  for (auto _ : state) {
    for (const std::string& c : commands) benchmark::DoNotOptimize(shell::analyze(c));
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * commands.size()));
}
BENCHMARK(BM_ParseEveryday)->Unit(benchmark::kMillisecond);

void BM_DetectEveryday(benchmark::State& state) {
  const auto& commands = everyday();
  for (auto _ : state) {
    for (const std::string& c : commands) benchmark::DoNotOptimize(approval::detect_dangerous(c));
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * commands.size()));
}
BENCHMARK(BM_DetectEveryday)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace hermes

BENCHMARK_MAIN();
