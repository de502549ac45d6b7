// SPDX-License-Identifier: MIT
// The nine matching strategies of docs/tools/patch.md, tried in order; the
// first that finds anything returns all of its matches, so the caller can
// refuse ambiguity. Built for speed: each file line is normalised at most
// once per tier, candidates come from the rarest pattern line's hash, and
// similarity is only scored on a shortlist.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hermes::match {

enum class Strategy {
  kExact,
  kLineTrimmed,
  kWhitespaceNormalized,
  kIndentationFlexible,
  kEscapeNormalized,
  kTrimmedBoundary,
  kUnicodeNormalized,
  kBlockAnchor,
  kContextAware,
};

// "exact", "line_trimmed", … as reported in `match_strategy`.
std::string_view strategy_name(Strategy strategy);
// block_anchor and context_aware: matches that are similar, not equal.
bool is_similarity(Strategy strategy);

struct Span {
  size_t begin = 0;
  size_t end = 0;
};

struct MatchSet {
  Strategy strategy = Strategy::kExact;
  std::vector<Span> spans;  // ascending, non-overlapping
  std::string pattern;      // what was matched (escape tier: unescaped)
};

struct MatchOptions {
  // V4A hunks: a match must start at a line start and end at a line end.
  bool line_anchored = false;
  // Per pattern line: true when the similarity tiers must find that line
  // equal (after trimming and Unicode folding), not merely similar. A V4A
  // patch's removed lines: a `-` line that is not in the file is refused.
  std::vector<bool> literal_lines;
};

// The first strategy with at least one match, with all of its matches.
std::optional<MatchSet> find_matches(std::string_view content, std::string_view pattern,
                                     const MatchOptions& options = {});

}  // namespace hermes::match
