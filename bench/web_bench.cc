// SPDX-License-Identifier: MIT
// The web engine's own cost: HTML → markdown on a 1 MB page, what
// web_extract adds on top of a fetch (charset decode + conversion), and the
// parse of a DuckDuckGo results page (web_search's work beyond the backend's
// own response time).
//   web_bench                      Google Benchmark run
//   web_bench --dump-page          the generated 1 MB page on stdout
//   web_bench --convert FILE N     median ms of N conversions of FILE, then
//                                  the markdown of FILE on stderr
#include "web/ddg_results.h"
#include "web/html_markdown.h"
#include "web/isolated_markdown.h"
#include "web/page_content.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>

namespace {

using hermes::web::html_to_markdown;

// A documentation-style page: navigation, headings, paragraphs with inline
// markup and links, nested lists, tables, code blocks; ~1 MB.
std::string generated_page() {
  std::string html =
      "<!doctype html><html><head><title>Generated manual</title>"
      "<style>body{}</style></head><body><nav><a href='/'>Home</a></nav><main>";
  for (int s = 0; html.size() < 1'000'000; ++s) {
    std::string n = std::to_string(s);
    html +=
        "<h2 id='s" + n + "'>Section " + n + "</h2><p>This <em>section</em> explains <b>feature " +
        n + "</b>; see <a href='../ref/" + n + ".html'>the reference</a> and <code>call_" + n +
        "()</code> for details. Text &amp; entities &lt;kept&gt;.</p><ul><li>First point</li>"
        "<li>Second with <a href='https://example.com/" +
        n +
        "'>a link</a><ol><li>nested</li>"
        "<li>more</li></ol></li></ul><table><tr><th>Name</th><th>Value</th></tr><tr><td>alpha</td>"
        "<td>" +
        n +
        "</td></tr><tr><td>beta|pipe</td><td colspan=1>x</td></tr></table>"
        "<pre><code class='language-python'>def f_" +
        n + "(x):\n    return x * 2\n</code></pre>";
  }
  return html + "</main><footer>Footer</footer></body></html>";
}

const std::string& page() {
  static const std::string p = generated_page();
  return p;
}

void BM_HtmlToMarkdown1MB(benchmark::State& state) {
  for (auto _ : state)
    benchmark::DoNotOptimize(html_to_markdown(page(), "https://docs.example/manual/"));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * page().size()));
}
BENCHMARK(BM_HtmlToMarkdown1MB)->Unit(benchmark::kMillisecond);

// Everything web_extract does with a fetched 1 MB HTML body (the
// conversion in a forked child included).
void BM_ExtractOverhead1MB(benchmark::State& state) {
  for (auto _ : state)
    benchmark::DoNotOptimize(
        hermes::web::page_content(page(), "text/html", "https://docs.example/", {}, {}));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * page().size()));
}
BENCHMARK(BM_ExtractOverhead1MB)->Unit(benchmark::kMillisecond);

// The isolation's own price: the same conversion in process and in a forked
// child, on a small page and on the 1 MB one; `resident_mib` is memory this
// process holds (touched) while it forks, as a long-running server would.
const std::string kSmallPage =
    "<html><head><title>Small</title></head><body><main><h1>Hello</h1><p>See <a "
    "href='/x'>x</a>.</p><ul><li>one</li><li>two</li></ul></main></body></html>";

void convert_bench(benchmark::State& state, const std::string& html, bool forked) {
  std::vector<char> resident(static_cast<size_t>(state.range(0)) << 20, 1);
  benchmark::DoNotOptimize(resident.data());
  auto deadline = std::chrono::steady_clock::now() + std::chrono::hours(1);
  for (auto _ : state) {
    if (forked)
      benchmark::DoNotOptimize(
          hermes::web::html_to_markdown_isolated(html, "https://d.example/", deadline, {}));
    else
      benchmark::DoNotOptimize(html_to_markdown(html, "https://d.example/"));
  }
}
void BM_SmallInProcess(benchmark::State& s) { convert_bench(s, kSmallPage, false); }
void BM_SmallForked(benchmark::State& s) { convert_bench(s, kSmallPage, true); }
void BM_1MBInProcess(benchmark::State& s) { convert_bench(s, page(), false); }
void BM_1MBForked(benchmark::State& s) { convert_bench(s, page(), true); }
BENCHMARK(BM_SmallInProcess)->ArgName("resident_mib")->Arg(0)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SmallForked)->ArgName("resident_mib")->Arg(0)->Arg(256)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_1MBInProcess)->ArgName("resident_mib")->Arg(0)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_1MBForked)->ArgName("resident_mib")->Arg(0)->Arg(256)->Unit(benchmark::kMillisecond);

std::string ddg_page() {
  std::string html = "<html><body><div id='links'>";
  for (int i = 0; i < 10; ++i) {
    std::string n = std::to_string(i);
    html +=
        "<div class='result results_links results_links_deep web-result'><div class='links_main'>"
        "<h2 class='result__title'><a rel='nofollow' class='result__a' "
        "href='//duckduckgo.com/l/?uddg="
        "https%3A%2F%2Fexample.com%2Fpage" +
        n + "&amp;rut=abcdef'>Result <b>" + n +
        "</b></a></h2>"
        "<a class='result__snippet' href='#'>Snippet text for result " +
        n +
        " with <b>terms</b>.</a>"
        "</div></div>";
  }
  return html + std::string(20000, ' ') + "</div></body></html>";
}

void BM_SearchResultsParse(benchmark::State& state) {
  static const std::string html = ddg_page();
  for (auto _ : state) benchmark::DoNotOptimize(hermes::web::parse_ddg_html(html, 10));
}
BENCHMARK(BM_SearchResultsParse)->Unit(benchmark::kMicrosecond);

int convert_file(const char* path, int runs) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buf;
  buf << in.rdbuf();
  std::string html = buf.str();
  std::vector<double> ms;
  std::string markdown;
  for (int i = 0; i < runs; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    markdown = html_to_markdown(html, "https://docs.example/manual/").markdown;
    ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  std::cout << ms[ms.size() / 2] << "\n";
  std::cerr << markdown;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && std::strcmp(argv[1], "--dump-page") == 0) {
    std::cout << page();
    return 0;
  }
  if (argc >= 4 && std::strcmp(argv[1], "--convert") == 0)
    return convert_file(argv[2], std::max(1, std::atoi(argv[3])));
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
