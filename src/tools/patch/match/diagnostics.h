// SPDX-License-Identifier: MIT
// Failure messages that let the model fix its next try (docs/tools/patch.md):
// every candidate of an ambiguous match, and for a miss the closest
// sections of the real file with a whitespace diagnosis.
#pragma once

#include "tools/patch/match/strategies.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hermes::match {

// "Found <n> matches for old_string. … Matches:" with up to five rows.
std::string ambiguity_message(std::string_view content, const std::vector<Span>& spans);

// "Could not find a match for old_string in the file" plus, when some line
// is more than 0.3 similar to old_string's first non-blank line, "Did you
// mean one of these sections?" snippets (best three) and a whitespace
// diagnosis when the best line differs only in whitespace.
std::string no_match_message(std::string_view content, std::string_view old_text);

// A miss that fits two or more places equally well (near-identical blocks,
// none matched by a tier): "Found <n> approximate matches for old_string, …
// Matches:" with each candidate's line range; nullopt when one place fits
// best or none is close (mean line similarity under 0.6).
std::optional<std::string> near_ambiguity_message(std::string_view content,
                                                  std::string_view old_text);

inline constexpr std::string_view kNoMatchPrefix =
    "Could not find a match for old_string in the file";
inline constexpr std::string_view kDidYouMean = "Did you mean one of these sections?";

}  // namespace hermes::match
