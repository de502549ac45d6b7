// SPDX-License-Identifier: MIT
#include "tools/patch/match/diagnostics.h"

#include "tools/patch/match/similarity.h"
#include "tools/patch/match/text_lines.h"

#include <algorithm>
#include <cstdio>

namespace hermes::match {
namespace {

constexpr size_t kMaxScored = 400;  // full difflib scores on a miss, best bounds first
constexpr size_t kKept = 12;        // best lines kept before near-duplicates are dropped

struct Scored {
  size_t line;
  double score;
};

// The best three lines above 0.3, scoring only the most promising by bound.
std::vector<Scored> closest_lines(const std::vector<std::string_view>& lines,
                                  std::string_view anchor) {
  std::u32string want = decode_utf8(trim_view(anchor));
  CharHistogram hist(want);
  std::vector<Scored> bounds;
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string_view line = trim_view(lines[i]);
    if (real_quick_ratio(want.size(), code_points(line)) <= 0.3) continue;
    double q = hist.quick_ratio(line);
    if (q > 0.3) bounds.push_back({i, q});
  }
  std::stable_sort(bounds.begin(), bounds.end(),
                   [](auto& a, auto& b) { return a.score > b.score; });
  std::vector<Scored> best;
  for (size_t k = 0; k < bounds.size() && k < kMaxScored; ++k) {
    if (best.size() == kKept && bounds[k].score <= best.back().score) break;
    double r = similarity_ratio(trim_view(anchor), trim_view(lines[bounds[k].line]));
    if (r <= 0.3) continue;
    best.push_back({bounds[k].line, r});
    std::stable_sort(best.begin(), best.end(), [](auto& a, auto& b) {
      return a.score != b.score ? a.score > b.score : a.line < b.line;
    });
    if (best.size() > kKept) best.pop_back();
  }
  // Three snippets that do not show the same lines twice.
  std::vector<Scored> out;
  for (const auto& s : best) {
    bool near = std::any_of(out.begin(), out.end(), [&](const Scored& o) {
      return (s.line > o.line ? s.line - o.line : o.line - s.line) <= 4;
    });
    if (!near && out.size() < 3) out.push_back(s);
  }
  return out;
}

std::string snippet(const std::vector<std::string_view>& lines, size_t center) {
  size_t from = center >= 2 ? center - 2 : 0, to = std::min(lines.size(), center + 3);
  std::string out;
  for (size_t i = from; i < to; ++i) {
    char num[32];
    std::snprintf(num, sizeof num, "%4zu| ", i + 1);
    out += (out.empty() ? "" : "\n") + std::string(num) + std::string(lines[i]);
  }
  return out;
}

// Tabs as →, spaces as ·, so invisible differences show.
std::string visible(std::string_view s) {
  std::string out;
  for (char c : s) out += c == '\t' ? "→" : c == ' ' ? "·" : std::string(1, c);
  return out;
}

std::string first_non_blank(std::string_view text) {
  for (auto line : line_views(text)) {
    if (!is_blank(line)) return std::string(line);
  }
  return "";
}

std::string row_text(std::string_view line) {
  std::string t(trim_view(line));
  return t.size() > 80 ? t.substr(0, 77) + "..." : t;
}

}  // namespace

std::string ambiguity_message(std::string_view content, const std::vector<Span>& spans) {
  auto lines = split_lines(content);
  std::string out = "Found " + std::to_string(spans.size()) +
                    " matches for old_string. Provide more context to make it unique, or use "
                    "replace_all=True. Matches:";
  for (size_t k = 0; k < spans.size() && k < 5; ++k) {
    size_t first = line_index_at(lines, spans[k].begin);
    size_t last =
        line_index_at(lines, spans[k].end > spans[k].begin ? spans[k].end - 1 : spans[k].begin);
    std::string_view text =
        content.substr(lines[first].begin, lines[first].end - lines[first].begin);
    std::string range = last > first ? "-" + std::to_string(last + 1) : "";
    out += "\n  L" + std::to_string(first + 1) + range + ": " + row_text(text);
  }
  if (spans.size() > 5) out += "\n  ... and " + std::to_string(spans.size() - 5) + " more";
  return out;
}

std::string no_match_message(std::string_view content, std::string_view old_text) {
  std::string out(kNoMatchPrefix);
  std::string anchor = first_non_blank(old_text);
  if (anchor.empty()) return out;
  auto lines = line_views(content);
  auto best = closest_lines(lines, anchor);
  if (best.empty()) return out;
  out += "\n\n" + std::string(kDidYouMean) + "\n";
  for (size_t k = 0; k < best.size(); ++k)
    out += (k ? "\n---\n" : "") + snippet(lines, best[k].line);
  std::string_view top = lines[best[0].line];
  if (trim_view(top) == trim_view(anchor) && top != anchor) {
    out += "\n\nWhitespace differs on line " + std::to_string(best[0].line + 1) +
           " (→ tab, · space):\n  file:       " + visible(top) +
           "\n  old_string: " + visible(anchor);
  }
  return out;
}

}  // namespace hermes::match
