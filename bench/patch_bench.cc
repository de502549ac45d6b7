// SPDX-License-Identifier: MIT
// fuzzy_replace on a 10,000-line file with a 20-line old_string at line
// 9,001: an exact hit, each whitespace/Unicode tier's hit, a similarity tier,
// and a full miss with diagnostics (targets: under 1 ms per tier hit, under
// 20 ms for a miss). Then the same tiers on files from 1 KB to 10 MB, so any
// growth with the file shows, and a whole patch call (read, match, write with
// fsync of file and directory, diff) on a 157 KB file: its CPU time is the
// edit's own cost, the gap to its wall time the durability share.
#include "core/allocator.h"
#include "fs/atomic_write.h"
#include "registry/registry.h"
#include "testutil/tool_session.h"
#include "tools/patch/match/replace.h"
#include "tools/patch/patch.h"

#include <benchmark/benchmark.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

namespace hermes::match {
namespace {

std::string line_text(int i) {
  return "result_" + std::to_string(i) + " = compute(\"item\", " + std::to_string(i % 97) + ")";
}

const std::string& file() {
  static const std::string text = [] {
    std::string out;
    for (int i = 0; i < 10000; ++i) out += "        " + line_text(i) + "\n";
    return out;
  }();
  return text;
}

// The 20 lines from 9,001, written by a model with `indent` and `tail`.
std::string block(const std::string& indent, const std::string& tail, bool curly = false) {
  std::string out;
  for (int i = 9000; i < 9020; ++i) {
    std::string t = line_text(i);
    if (curly) t.replace(t.find('"'), 6, "\xE2\x80\x9Citem\xE2\x80\x9D");
    out += indent + t + tail + "\n";
  }
  return out;
}

void run(benchmark::State& state, const std::string& old_text, const char* expect) {
  std::string new_text = old_text + "    # edited\n";
  for (auto _ : state) {
    auto r = fuzzy_replace({file(), old_text, new_text, false, {}});
    benchmark::DoNotOptimize(r);
    bool ok = std::holds_alternative<ReplaceOutcome>(r);
    std::string got =
        ok ? std::string(strategy_name(std::get<ReplaceOutcome>(r).strategy)) : "miss";
    if (got != expect)
      state.SkipWithError(("expected " + std::string(expect) + ", got " + got).c_str());
  }
}

void BM_Exact(benchmark::State& s) { run(s, block("        ", ""), "exact"); }
void BM_IndentDrift(benchmark::State& s) { run(s, block("    ", ""), "line_trimmed"); }
void BM_TrailingWhitespace(benchmark::State& s) { run(s, block("        ", "  "), "line_trimmed"); }
void BM_UnicodeQuotes(benchmark::State& s) {
  run(s, block("        ", "", true), "unicode_normalized");
}
void BM_BlockAnchor(benchmark::State& s) {
  std::string b = block("        ", "");
  b.replace(b.find("compute", 200), 7, "computed");  // one interior line drifted
  run(s, b, "block_anchor");
}
void BM_Miss(benchmark::State& s) {
  std::string b;
  for (int i = 0; i < 20; ++i)
    b += "        missing_" + std::to_string(i) + " = nowhere(" + std::to_string(i) + ")\n";
  run(s, b, "miss");
}

BENCHMARK(BM_Exact)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_IndentDrift)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TrailingWhitespace)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_UnicodeQuotes)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BlockAnchor)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Miss)->Unit(benchmark::kMicrosecond);

// A file of about `bytes` with the 20-line block 90% of the way in.
std::string sized_file(size_t bytes) {
  std::string out;
  const size_t lines = std::max<size_t>(bytes / 48, 40);
  const size_t at = std::min(lines * 9 / 10, lines - 20);
  for (size_t i = 0; i < lines; ++i) {
    int tag = static_cast<int>(i < at || i >= at + 20 ? 100000 + i : 9000 + (i - at));
    out += "        " + line_text(tag) + "\n";
  }
  return out;
}

void run_sized(benchmark::State& state, const std::string& old_text, const char* expect) {
  const std::string content = sized_file(static_cast<size_t>(state.range(0)));
  std::string new_text = old_text + "    # edited\n";
  for (auto _ : state) {
    auto r = fuzzy_replace({content, old_text, new_text, false, {}});
    benchmark::DoNotOptimize(r);
    bool ok = std::holds_alternative<ReplaceOutcome>(r);
    std::string got =
        ok ? std::string(strategy_name(std::get<ReplaceOutcome>(r).strategy)) : "miss";
    if (got != expect)
      state.SkipWithError(("expected " + std::string(expect) + ", got " + got).c_str());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * content.size()));
}

std::string one_line() { return "        " + line_text(9005) + "\n"; }

void BM_SizedExactOneLine(benchmark::State& s) { run_sized(s, one_line(), "exact"); }
void BM_SizedLineTrimmed(benchmark::State& s) { run_sized(s, block("    ", ""), "line_trimmed"); }
void BM_SizedBlockAnchor(benchmark::State& s) {
  std::string b = block("        ", "");
  b.replace(b.find("compute", 200), 7, "computed");
  run_sized(s, b, "block_anchor");
}
void BM_SizedMiss(benchmark::State& s) {
  std::string b;
  for (int i = 0; i < 20; ++i)
    b += "        missing_" + std::to_string(i) + " = nowhere(" + std::to_string(i) + ")\n";
  run_sized(s, b, "miss");
}

#define SIZES ->Arg(1 << 10)->Arg(16 << 10)->Arg(157 << 10)->Arg(1 << 20)->Arg(10 << 20)
BENCHMARK(BM_SizedExactOneLine)->Unit(benchmark::kMicrosecond) SIZES;
BENCHMARK(BM_SizedLineTrimmed)->Unit(benchmark::kMicrosecond) SIZES;
BENCHMARK(BM_SizedBlockAnchor)->Unit(benchmark::kMicrosecond) SIZES;
BENCHMARK(BM_SizedMiss)->Unit(benchmark::kMicrosecond) SIZES;

}  // namespace
}  // namespace hermes::match

namespace hermes {
namespace {

// The patch tool in-process, one session, as an MCP call would run it.
class PatchTool : public testing::ToolSession {
 public:
  PatchTool() {
    patch::register_patch(registry());
    registry().enable_toolsets({"file"});
  }
  Json call(const Json& args) { return ToolSession::call("patch", args); }
};

// An exact one-line replace in a 5,000-line (157 KB) file, toggled back and
// forth. CPU is this thread's; wall time adds the fsync waits.
void BM_PatchToolEdit(benchmark::State& state) {
  const size_t lines = static_cast<size_t>(state.range(0));
  std::string path = (std::filesystem::temp_directory_path() / "hermes-bench-edit.txt").string();
  {
    std::ofstream out(path, std::ios::binary);
    for (size_t i = 0; i < lines; ++i) {
      out << (i == lines / 2 ? "const benchMarker = 'alpha-state';"
                             : "    value_" + std::to_string(i) + " = compute(a, b)")
          << "\n";
    }
  }
  PatchTool tool;
  const std::string a = "const benchMarker = 'alpha-state';",
                    b = "const benchMarker = 'omega-state';";
  bool flip = false;
  for (auto _ : state) {
    Json r = tool.call({{"mode", "replace"},
                        {"path", path},
                        {"old_string", flip ? b : a},
                        {"new_string", flip ? a : b}});
    if (r.value("success", false) != true) state.SkipWithError(r.dump().substr(0, 200).c_str());
    flip = !flip;
  }
  state.counters["file_kb"] = static_cast<double>(std::filesystem::file_size(path)) / 1024;
  std::filesystem::remove(path);
}
BENCHMARK(BM_PatchToolEdit)->Arg(50)->Arg(5000)->Arg(50000)->Unit(benchmark::kMicrosecond);

// The durability share on its own: the atomic write of 157 KB (temp file,
// fsync, rename, directory fsync), no matching.
void BM_AtomicWrite157KB(benchmark::State& state) {
  std::string path = (std::filesystem::temp_directory_path() / "hermes-bench-durable.txt").string();
  std::string bytes(157 << 10, 'x');
  for (auto _ : state) {
    if (!fs::atomic_write(path, bytes)) state.SkipWithError("write failed");
  }
  std::filesystem::remove(path);
}
BENCHMARK(BM_AtomicWrite157KB)->Unit(benchmark::kMicrosecond);

// A 1 KB atomic write in a folder of range(0) other files: the write's cost
// must not grow with the folder (a source tree's big directories).
void BM_AtomicWrite1KBInFolderOf(benchmark::State& state) {
  const auto dir = std::filesystem::temp_directory_path() / "hermes-bench-folder";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  for (int64_t i = 0; i < state.range(0); ++i)
    std::ofstream(dir / ("file" + std::to_string(i) + ".txt")) << i;
  const std::string path = (dir / "target.txt").string();
  const std::string bytes(1024, 'x');
  for (auto _ : state) {
    if (!fs::atomic_write(path, bytes)) state.SkipWithError("write failed");
  }
  std::filesystem::remove_all(dir);
}
BENCHMARK(BM_AtomicWrite1KBInFolderOf)->Arg(0)->Arg(5000)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace hermes

int main(int argc, char** argv) {
  hermes::tune_allocator();  // as the server does
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
