// SPDX-License-Identifier: MIT
#include "web/isolated_markdown.h"

#include <cstdlib>
#include <mutex>

namespace hermes::web {
namespace {

// Converting the 1 MB bench page peaks at 32 MB resident (web_bench
// --convert under /usr/bin/time -v): Gumbo's tree is some 25 bytes per byte
// of HTML, the writer's strings come on top. The cap leaves room for more.
constexpr size_t kMemoryBase = 256u << 20;
constexpr size_t kMemoryPerByte = 64;

// The child's answer: the title's length in decimal, a newline, the title,
// then the markdown.
void send(proc::ForkedOutput& out, const HtmlDocument& doc) {
  out.write(std::to_string(doc.title.size()) + "\n");
  out.write(doc.title);
  out.write(doc.markdown);
}

// Lazy binding resolves a shared library's function on its first call, and
// a child's resolutions die with it: without this every child looked up
// Gumbo's, libcurl's and libstdc++'s functions again (a third of a small
// page's cost). One conversion of a fixed page here, once, binds them in
// the parent for every child to inherit.
void bind_converter_symbols() {
  static std::once_flag once;
  std::call_once(once, [] {
    html_to_markdown(
        "<title>t</title><main><h1>h</h1><p><a href='a'>a</a> <b>b</b> <code>c</code></p><ul>"
        "<li>l</li></ul><ol><li>o</li></ol><table><tr><th align=left>x</th></tr><tr><td>y</td>"
        "</tr></table><pre class='language-c'>p</pre><blockquote>q</blockquote></main>",
        "https://bind.example/");
  });
}

Result<HtmlDocument> receive(const std::string& bytes) {
  size_t newline = bytes.find('\n');
  size_t title_size = 0;
  if (newline != std::string::npos) title_size = std::strtoull(bytes.c_str(), nullptr, 10);
  if (newline == std::string::npos || title_size > bytes.size() - newline - 1)
    return Error::Io("sent a malformed answer");
  HtmlDocument doc;
  doc.title = bytes.substr(newline + 1, title_size);
  doc.markdown = bytes.substr(newline + 1 + title_size);
  return doc;
}

}  // namespace

Result<std::string> run_html_child(const std::function<void(proc::ForkedOutput&)>& work,
                                   size_t html_bytes, size_t output_cap,
                                   std::chrono::steady_clock::time_point deadline,
                                   std::stop_token stop) {
  bind_converter_symbols();
  proc::ForkedLimits limits;
  limits.deadline = deadline;
  limits.memory_growth = kMemoryBase + kMemoryPerByte * html_bytes;
  limits.output_cap = output_cap;
  return proc::run_forked(work, limits, stop);
}

Result<HtmlDocument> html_to_markdown_isolated(std::string_view html, const std::string& page_url,
                                               std::chrono::steady_clock::time_point deadline,
                                               std::stop_token stop, HtmlConverter convert) {
  auto bytes = run_html_child([&](proc::ForkedOutput& out) { send(out, convert(html, page_url)); },
                              html.size(), kMarkdownCap + 64, deadline, stop);
  if (!bytes) return bytes.error();
  return receive(*bytes);
}

}  // namespace hermes::web
