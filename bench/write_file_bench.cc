// SPDX-License-Identifier: MIT
// The write pipeline end to end (prepare + atomic write with fsync + sha256
// read-back verification) for 4 KB and 1 MB files.
#include "tools/write_pipeline/file_writer.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace hermes {
namespace {

void BM_WriteFile(benchmark::State& state) {
  std::string dir = (std::filesystem::temp_directory_path() / "hermes-wbench-XXXXXX").string();
  if (!::mkdtemp(dir.data())) {
    state.SkipWithError("mkdtemp failed");
    return;
  }
  const std::string path = dir + "/out.txt";
  std::string content;
  while (content.size() < static_cast<size_t>(state.range(0)))
    content += "line of text for the benchmark\n";
  content.resize(static_cast<size_t>(state.range(0)));
  for (auto _ : state) {
    auto prepared =
        write_pipeline::prepare_write(path, content, dir + "/home", write_pipeline::WriteShims{});
    auto committed = write_pipeline::commit_write(*prepared);
    if (!committed || !committed->verified) state.SkipWithError("write failed");
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * state.range(0));
  std::filesystem::remove_all(dir);
}

BENCHMARK(BM_WriteFile)->Arg(4 << 10)->Arg(1 << 20)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace hermes

BENCHMARK_MAIN();
