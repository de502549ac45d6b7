// SPDX-License-Identifier: MIT
// Tiers 8 (block_anchor) and 9 (context_aware). Both only accept a window
// whose every interior line passes the similarity test on its own, so a
// line the model did not mean is never rewritten.
#include "tools/patch/match/match_internal.h"
#include "tools/patch/match/similarity.h"
#include "tools/patch/match/unicode_fold.h"

namespace hermes::match::detail {
namespace {

constexpr double kContextThreshold = 0.80;

std::u32string folded_trimmed(std::string_view line) {
  return decode_utf8(trim_view(fold_unicode(line)));
}

// difflib's cheap bounds first; most lines never reach the real score.
bool similar_enough(const std::u32string& pattern, const CharHistogram& hist, std::string_view line,
                    double threshold) {
  std::string_view t = trim_view(line);
  std::string folded;
  if (has_foldable(t)) {
    folded = std::string(trim_view(fold_unicode(t)));
    t = folded;
  }
  if (real_quick_ratio(hist.size(), code_points(t)) < threshold) return false;
  if (hist.quick_ratio(t) < threshold) return false;
  return similarity_ratio(pattern, decode_utf8(t)) >= threshold;
}

bool is_literal(const std::vector<bool>& literal, size_t j) {
  return j < literal.size() && literal[j];
}

// Pattern line j equals the file line after trimming and folding.
bool equal_line(Subject& file, const Pattern& pattern, size_t j, size_t at) {
  std::string storage;
  return file.keys(Key::kFoldTrim)[at] == key_view(pattern.lines[j], Key::kFoldTrim, storage);
}

// Every interior line of the window at `s` is at least `threshold` similar
// to its pattern line, and every literal one is equal.
bool interior_passes(Subject& file, const Pattern& pattern, size_t s, double threshold,
                     const std::vector<bool>& literal) {
  for (size_t j = 1; j + 1 < pattern.lines.size(); ++j) {
    if (is_literal(literal, j)) {
      if (!equal_line(file, pattern, j, s + j)) return false;
      continue;
    }
    std::u32string p = folded_trimmed(pattern.lines[j]);
    if (similarity_ratio(p, folded_trimmed(file.line(s + j))) < threshold) return false;
  }
  return true;
}

}  // namespace

std::vector<size_t> block_anchor_starts(Subject& file, const Pattern& pattern,
                                        const std::vector<bool>& literal) {
  const size_t m = pattern.lines.size(), n = file.lines().size();
  if (m < 2 || m > n) return {};
  std::string s1, s2;
  std::string_view first = key_view(pattern.lines.front(), Key::kFoldTrim, s1);
  std::string_view last = key_view(pattern.lines.back(), Key::kFoldTrim, s2);
  const auto& keys = file.keys(Key::kFoldTrim);
  std::vector<size_t> anchored;
  for (size_t i = 0; i + m <= n; ++i) {
    if (keys[i] == first && keys[i + m - 1] == last) anchored.push_back(i);
  }
  // Upstream's thresholds (0.50 for one candidate, 0.70 for several),
  // applied to each interior line separately.
  auto passing = [&](double threshold) {
    std::vector<size_t> out;
    for (size_t s : anchored) {
      if (interior_passes(file, pattern, s, threshold, literal)) out.push_back(s);
    }
    return out;
  };
  if (anchored.size() == 1) return passing(0.50);
  std::vector<size_t> out = passing(0.70);
  if (!out.empty()) return out;
  // Several copies, all drifted past 0.70: when two or more still pass the
  // single-candidate test they are reported as ambiguous, never as a miss.
  out = passing(0.50);
  return out.size() > 1 ? out : std::vector<size_t>{};
}

std::vector<size_t> context_aware_starts(Subject& file, const Pattern& pattern,
                                         const std::vector<bool>& literal) {
  const size_t m = pattern.lines.size(), n = file.lines().size();
  // A single line that is only similar is a different line: never edited.
  if (m < 2 || m > n) return {};
  std::vector<std::u32string> want(m);
  std::vector<CharHistogram> hist;
  for (size_t j = 0; j < m; ++j) {
    want[j] = folded_trimmed(pattern.lines[j]);
    hist.emplace_back(want[j]);
  }
  auto line_passes = [&](size_t s, size_t j) {
    if (is_literal(literal, j)) return equal_line(file, pattern, j, s + j);
    if (want[j].empty() && j > 0 && j + 1 < m) return true;  // blank interior lines are not scored
    return similar_enough(want[j], hist[j], file.line(s + j), kContextThreshold);
  };
  std::vector<size_t> out;
  for (size_t s = 0; s + m <= n; ++s) {
    if (!line_passes(s, 0) || !line_passes(s, m - 1)) continue;
    bool all = true;
    for (size_t j = 1; j + 1 < m && all; ++j) all = line_passes(s, j);
    if (all) out.push_back(s);
  }
  return out;
}

}  // namespace hermes::match::detail
