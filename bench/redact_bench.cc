// SPDX-License-Identifier: MIT
// Redaction throughput (MB/s) on 10 MB of mixed text: source code, prose,
// logs, and a secret of some family every few dozen lines.
#include "core/redact.h"

#include <benchmark/benchmark.h>

#include <string>
#include <vector>

namespace hermes {
namespace {

const std::string& mixed_text() {
  static const std::string text = [] {
    const std::vector<std::string> lines = {
        "def handler(event, context):\n",
        "    total = sum(item['price'] * item['qty'] for item in event['items'])\n",
        "The quick brown fox jumps over the lazy dog; see https://example.com/docs?page=2.\n",
        "2026-11-29T20:00:00Z INFO request id=4f1c2a status=200 bytes=5123 path=/api/v1/users\n",
        "MAX_TOKENS = 4096  # model limit, not a secret\n",
        "    if (a + b > c) { return compute(alpha, beta); }\n",
        "export PATH=/usr/local/bin:$PATH\n",
        "    \"name\": \"hermes-tools\", \"version\": \"0.1.0\",\n",
    };
    const std::vector<std::string> secrets = {
        "OPENAI_API_KEY=sk-proj-aB3dE5fG7hJ9kL1mN2pQ4rS6tU8v\n",
        "token: ghp_aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xYz12\n",
        "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.abcdEFGHijklMNOP\n",
        "DATABASE_URL=postgres://app:hunter2secret@db.internal:5432/prod\n",
        "call +14155552671 for support\n",
    };
    std::string out;
    for (size_t i = 0; out.size() < (10u << 20); ++i) {
      out += lines[i % lines.size()];
      if (i % 40 == 39) out += secrets[(i / 40) % secrets.size()];
    }
    return out;
  }();
  return text;
}

void BM_RedactFileRead(benchmark::State& state) {
  const std::string& text = mixed_text();
  for (auto _ : state)
    benchmark::DoNotOptimize(redact_secrets(text, {RedactMode::kFileRead, false}));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_RedactFileRead)->Unit(benchmark::kMillisecond);

void BM_RedactOutputFullPass(benchmark::State& state) {
  const std::string& text = mixed_text();
  for (auto _ : state) benchmark::DoNotOptimize(redact_secrets(text, {RedactMode::kOutput, true}));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_RedactOutputFullPass)->Unit(benchmark::kMillisecond);

// A read_file page of a 4 KB file whose lines end in a word: every line
// break sits between two token characters (`…xxx\n2|line…`), the case the
// split-token pass must rule out cheaply.
void BM_RedactSmallPage(benchmark::State& state) {
  std::string page;
  for (int i = 0; i < 50; ++i) {
    std::string line = "line " + std::to_string(100000 + i) + " ";
    line.resize(79, 'x');
    page += (i ? "\n" : "") + std::to_string(i + 1) + "|" + line;
  }
  for (auto _ : state)
    benchmark::DoNotOptimize(redact_secrets(page, {RedactMode::kFileRead, false}));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * page.size()));
}
BENCHMARK(BM_RedactSmallPage)->Unit(benchmark::kMicrosecond);

// A read_file page of a 4 KB file of prose (the shared harness's
// read_small file): the common case, with no secret in it.
void BM_RedactProsePage(benchmark::State& state) {
  const std::vector<std::string> words = {"the",   "quick", "brown",    "fox",    "jumps",
                                          "over",  "lazy",  "dog",      "alpha",  "beta",
                                          "gamma", "delta", "function", "return", "value",
                                          "index", "table", "server",   "guard",  "stash"};
  std::string page;
  for (size_t i = 0, line = 1; page.size() < 4096; ++line) {
    page += (line > 1 ? "\n" : "") + std::to_string(line) + "|";
    for (size_t width = 0; width < 72; ++i) {
      const std::string& word = words[(i * 7 + line) % words.size()];
      page += (width ? " " : "") + word;
      width += word.size() + 1;
    }
  }
  for (auto _ : state)
    benchmark::DoNotOptimize(redact_secrets(page, {RedactMode::kFileRead, false}));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * page.size()));
}
BENCHMARK(BM_RedactProsePage)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace hermes

BENCHMARK_MAIN();
