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

// The best lines above 0.3 (up to kKept), scoring only the most promising
// by bound.
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
  return best;
}

// Three snippets that do not show the same lines twice.
std::vector<Scored> distinct_snippets(const std::vector<Scored>& best) {
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

// One candidate row: `\n  L<first>[-<last>]: <first line>` (0-based in).
std::string candidate_row(size_t first, size_t last, std::string_view text) {
  std::string range = last > first ? "-" + std::to_string(last + 1) : "";
  return "\n  L" + std::to_string(first + 1) + range + ": " + row_text(text);
}

constexpr size_t kMaxWindow = 200;  // pattern lines scored per window
constexpr double kNearScore = 0.6;  // mean line similarity of a near match
constexpr double kTie = 0.02;       // windows this close fit equally well

// Mean similarity of the pattern's lines to the window's, blank pairs equal.
double window_score(const std::vector<std::string_view>& lines, size_t start,
                    const std::vector<std::string_view>& pattern) {
  double sum = 0;
  for (size_t j = 0; j < pattern.size(); ++j) {
    std::string_view p = trim_view(pattern[j]), f = trim_view(lines[start + j]);
    sum += p.empty() && f.empty() ? 1.0 : similarity_ratio(p, f);
  }
  return sum / static_cast<double>(pattern.size());
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
    out += candidate_row(first, last,
                         content.substr(lines[first].begin, lines[first].end - lines[first].begin));
  }
  if (spans.size() > 5) out += "\n  ... and " + std::to_string(spans.size() - 5) + " more";
  return out;
}

std::string no_match_message(std::string_view content, std::string_view old_text) {
  std::string out(kNoMatchPrefix);
  std::string anchor = first_non_blank(old_text);
  if (anchor.empty()) return out;
  auto lines = line_views(content);
  auto best = distinct_snippets(closest_lines(lines, anchor));
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

std::optional<std::string> near_ambiguity_message(std::string_view content,
                                                  std::string_view old_text) {
  std::vector<std::string_view> pattern = line_views(old_text);
  if (!pattern.empty() && pattern.back().empty()) pattern.pop_back();
  size_t anchor_at = 0;
  while (anchor_at < pattern.size() && is_blank(pattern[anchor_at])) ++anchor_at;
  if (pattern.size() < 2 || pattern.size() > kMaxWindow || anchor_at == pattern.size())
    return std::nullopt;
  auto lines = line_views(content);
  // Windows placed by the lines closest to old_string's first non-blank line.
  std::vector<Scored> windows;
  for (const Scored& s : closest_lines(lines, pattern[anchor_at])) {
    if (s.line < anchor_at || s.line - anchor_at + pattern.size() > lines.size()) continue;
    size_t start = s.line - anchor_at;
    windows.push_back({start, window_score(lines, start, pattern)});
  }
  std::stable_sort(windows.begin(), windows.end(),
                   [](auto& a, auto& b) { return a.score > b.score; });
  if (windows.empty() || windows[0].score < kNearScore) return std::nullopt;
  std::vector<size_t> picked;
  for (const Scored& w : windows) {
    if (w.score < windows[0].score - kTie) break;
    bool overlaps = std::any_of(picked.begin(), picked.end(), [&](size_t p) {
      return w.line < p + pattern.size() && p < w.line + pattern.size();
    });
    if (!overlaps) picked.push_back(w.line);
  }
  if (picked.size() < 2) return std::nullopt;
  std::sort(picked.begin(), picked.end());
  std::string out = "Found " + std::to_string(picked.size()) +
                    " approximate matches for old_string, equally close and none of them exact, "
                    "so the edit is ambiguous. Make old_string match one of them exactly, with a "
                    "line only that one has. Matches:";
  for (size_t start : picked) {
    size_t first = start + anchor_at;
    out += candidate_row(first, start + pattern.size() - 1, lines[first]);
  }
  return out;
}

}  // namespace hermes::match
