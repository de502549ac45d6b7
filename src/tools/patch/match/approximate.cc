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

}  // namespace

std::vector<size_t> block_anchor_starts(Subject& file, const Pattern& pattern) {
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
  // Upstream's thresholds, applied to each interior line separately.
  const double threshold = anchored.size() == 1 ? 0.50 : 0.70;
  std::vector<size_t> out;
  for (size_t s : anchored) {
    bool all = true;
    for (size_t j = 1; j + 1 < m && all; ++j) {
      std::u32string p = folded_trimmed(pattern.lines[j]);
      all = similarity_ratio(p, folded_trimmed(file.line(s + j))) >= threshold;
    }
    if (all) out.push_back(s);
  }
  return out;
}

std::vector<size_t> context_aware_starts(Subject& file, const Pattern& pattern) {
  const size_t m = pattern.lines.size(), n = file.lines().size();
  if (m == 0 || m > n) return {};
  std::vector<std::u32string> want(m);
  std::vector<CharHistogram> hist;
  for (size_t j = 0; j < m; ++j) {
    want[j] = folded_trimmed(pattern.lines[j]);
    hist.emplace_back(want[j]);
  }
  std::vector<size_t> out;
  for (size_t s = 0; s + m <= n; ++s) {
    if (!similar_enough(want[0], hist[0], file.line(s), kContextThreshold)) continue;
    if (!similar_enough(want[m - 1], hist[m - 1], file.line(s + m - 1), kContextThreshold)) continue;
    bool all = true;
    for (size_t j = 1; j + 1 < m && all; ++j) {
      if (want[j].empty()) continue;  // blank pattern lines are not scored
      all = similar_enough(want[j], hist[j], file.line(s + j), kContextThreshold);
    }
    if (all) out.push_back(s);
  }
  return out;
}

}  // namespace hermes::match::detail
