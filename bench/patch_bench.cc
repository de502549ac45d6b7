// SPDX-License-Identifier: MIT
// fuzzy_replace on a 10,000-line file with a 20-line old_string at line
// 9,001: an exact hit, each whitespace/Unicode tier's hit, a similarity tier,
// and a full miss with diagnostics (edit-matching.md §10–§11 targets: under
// 1 ms per tier hit, under 20 ms for a miss).
#include <benchmark/benchmark.h>

#include <string>

#include "tools/patch/match/replace.h"

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
    std::string got = ok ? std::string(strategy_name(std::get<ReplaceOutcome>(r).strategy)) : "miss";
    if (got != expect) state.SkipWithError(("expected " + std::string(expect) + ", got " + got).c_str());
  }
}

void BM_Exact(benchmark::State& s) { run(s, block("        ", ""), "exact"); }
void BM_IndentDrift(benchmark::State& s) { run(s, block("    ", ""), "line_trimmed"); }
void BM_TrailingWhitespace(benchmark::State& s) { run(s, block("        ", "  "), "line_trimmed"); }
void BM_UnicodeQuotes(benchmark::State& s) { run(s, block("        ", "", true), "unicode_normalized"); }
void BM_BlockAnchor(benchmark::State& s) {
  std::string b = block("        ", "");
  b.replace(b.find("compute", 200), 7, "computed");  // one interior line drifted
  run(s, b, "block_anchor");
}
void BM_Miss(benchmark::State& s) {
  std::string b;
  for (int i = 0; i < 20; ++i) b += "        missing_" + std::to_string(i) + " = nowhere(" + std::to_string(i) + ")\n";
  run(s, b, "miss");
}

BENCHMARK(BM_Exact)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_IndentDrift)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TrailingWhitespace)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_UnicodeQuotes)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BlockAnchor)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Miss)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace hermes::match

BENCHMARK_MAIN();
