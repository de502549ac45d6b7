// SPDX-License-Identifier: MIT
#include "web/ddg_results.h"

#include "core/strings.h"
#include "web/html_tree.h"
#include "web/isolated_markdown.h"
#include "web/url.h"

#include <gumbo.h>

#include <cstdlib>

namespace hermes::web {
namespace {

// `//duckduckgo.com/l/?uddg=<target>&rut=…` → the target.
std::string ddg_target(std::string href) {
  size_t at = href.find("uddg=");
  if (href.find("duckduckgo.com/l/") == std::string::npos || at == std::string::npos) return href;
  std::string value = href.substr(at + 5, href.find('&', at) - (at + 5));
  return percent_decode(value);
}

struct DdgRow {
  const GumboNode* link = nullptr;
  const GumboNode* snippet = nullptr;
};

// Results sit a few levels below <body>, their parts a few levels below the
// result: deeper nesting is skipped, so no walk here recurses without bound.
constexpr int kMaxDepth = 64;

void find_parts(const GumboNode* node, DdgRow& row, int depth) {
  if (node->type != GUMBO_NODE_ELEMENT || depth > kMaxDepth) return;
  if (!row.link && has_class_token(node, "result__a")) row.link = node;
  if (!row.snippet && has_class_token(node, "result__snippet")) row.snippet = node;
  const GumboVector& kids = node->v.element.children;
  for (unsigned i = 0; i < kids.length; ++i)
    find_parts(static_cast<const GumboNode*>(kids.data[i]), row, depth + 1);
}

void collect_results(const GumboNode* node, std::vector<DdgRow>& rows, int depth) {
  if (node->type != GUMBO_NODE_ELEMENT || depth > kMaxDepth) return;
  if (node->v.element.tag == GUMBO_TAG_DIV && has_class_token(node, "result")) {
    if (has_class_token(node, "result--ad")) return;
    DdgRow row;
    find_parts(node, row, 0);
    if (row.link) rows.push_back(row);
    return;
  }
  const GumboVector& kids = node->v.element.children;
  for (unsigned i = 0; i < kids.length; ++i)
    collect_results(static_cast<const GumboNode*>(kids.data[i]), rows, depth + 1);
}

// `html` with every run of ASCII whitespace made one space: Gumbo spends
// most of its time on a results page emitting the indentation one
// character token at a time, and nothing read from the page (link text,
// snippets, hrefs) depends on the length of a run.
std::string squeezed(std::string_view html) {
  std::string out;
  out.reserve(html.size());
  bool in_run = false;
  for (char c : html) {
    bool space = c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f';
    if (!space || !in_run) out += space ? ' ' : c;
    in_run = space;
  }
  return out;
}

// The child's answer: per hit, each of its three fields as its length in
// decimal, a newline and the bytes.
void send_field(proc::ForkedOutput& out, const std::string& field) {
  out.write(std::to_string(field.size()) + "\n");
  out.write(field);
}

// Reads one field at `at`; false when the bytes do not hold one.
bool take_field(const std::string& bytes, size_t& at, std::string& field) {
  size_t newline = bytes.find('\n', at);
  if (newline == std::string::npos) return false;
  size_t size = std::strtoull(bytes.c_str() + at, nullptr, 10);
  if (size > bytes.size() - newline - 1) return false;
  field = bytes.substr(newline + 1, size);
  at = newline + 1 + size;
  return true;
}

Result<std::vector<SearchHit>> receive(const std::string& bytes) {
  std::vector<SearchHit> hits;
  for (size_t at = 0; at < bytes.size();) {
    SearchHit hit;
    if (!take_field(bytes, at, hit.title) || !take_field(bytes, at, hit.url) ||
        !take_field(bytes, at, hit.description))
      return Error::Io("sent a malformed answer");
    hits.push_back(std::move(hit));
  }
  return hits;
}

}  // namespace

std::vector<SearchHit> parse_ddg_html(std::string_view html, int limit) {
  const std::string text = squeezed(html);  // Gumbo's tree points into it
  ParsedHtml doc(text);
  std::vector<DdgRow> rows;
  collect_results(doc.root(), rows, 0);
  std::vector<SearchHit> hits;
  for (const DdgRow& r : rows) {
    if (static_cast<int>(hits.size()) >= limit) break;
    std::string href = ddg_target(std::string(attribute(r.link, "href")));
    if (starts_with(href, "//")) href = "https:" + href;
    hits.push_back({collapsed_text(r.link), href, r.snippet ? collapsed_text(r.snippet) : ""});
  }
  return hits;
}

Result<std::vector<SearchHit>> parse_ddg_html_isolated(
    std::string_view html, int limit, std::chrono::steady_clock::time_point deadline,
    std::stop_token stop) {
  auto send = [&](proc::ForkedOutput& out) {
    for (const SearchHit& hit : parse_ddg_html(html, limit)) {
      send_field(out, hit.title);
      send_field(out, hit.url);
      send_field(out, hit.description);
    }
  };
  auto bytes = run_html_child(send, html.size(), kMarkdownCap, deadline, stop);
  if (!bytes) return bytes.error();
  return receive(*bytes);
}

}  // namespace hermes::web
