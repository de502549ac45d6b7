// SPDX-License-Identifier: MIT
// Pieces shared by the redaction passes (redact.cc, redact_assign.cc): the
// match-and-substitute loop over one compiled RE2 and the two mask shapes.
// Internal to src/core.
#pragma once

#include <re2/re2.h>

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hermes::redact_detail {

// One match: the whole text, the capture groups (group 0 is the match) and
// the match's byte range in the text.
struct Match {
  std::string_view text;
  std::vector<std::string_view> groups;
  size_t begin = 0;
  size_t end = 0;
  // Byte offset of group `i` in the text (only for a group that matched).
  size_t offset(size_t i) const { return static_cast<size_t>(groups[i].data() - text.data()); }
};

// Returns the replacement for a match, or nullopt to keep it unchanged.
using Replacer = std::function<std::optional<std::string>(const Match&)>;

// Replaces every non-overlapping match of `re` in `text` (leftmost first).
// After a kept match the scan resumes at the match's end, so every pass is
// one left-to-right sweep: linear in the input. `text` is rebuilt only when
// something was replaced: a pass that finds nothing copies nothing.
void substitute(std::string& text, const RE2& re, const Replacer& replace);

// Like substitute, but tries `re` only anchored at each of `starts`
// (ascending byte offsets found by a cheap scan), so the pass costs the scan
// plus short matches instead of a full regex sweep.
void substitute_at(std::string& text, const RE2& re, const std::vector<size_t>& starts,
                   const Replacer& replace);

// head6...tail4 (code points); under 18 code points `***`.
std::string mask_token(std::string_view token);
// The non-reusable sentinel `«redacted:<prefix>…»` for a token that starts
// with a known vendor prefix, else `«redacted-secret»`.
std::string sentinel(std::string_view token);
// The vendor prefix `token` starts with, or empty.
std::string_view vendor_label(std::string_view token);

// The bytes that may continue a token: [A-Za-z0-9_-] (a table: the scans
// ask once per byte).
inline constexpr std::array<bool, 256> kTokenChars = [] {
  std::array<bool, 256> table{};
  for (int c = 0; c < 256; ++c) {
    table[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_' || c == '-';
  }
  return table;
}();

inline bool is_token_char(char c) { return kTokenChars[static_cast<unsigned char>(c)]; }

// The KEY=value / `key: value` / JSON / Python-repr passes. `sentinels`
// selects the non-reusable sentinel (file reads) over the head/tail mask.
void redact_assignments(std::string& text, bool sentinels);
// Python mapping repr fields (`{'API_KEY': '…'}`) on pytest `E` lines and
// exception lines only (terminal output of ordinary commands).
void redact_diagnostic_repr_fields(std::string& text);

}  // namespace hermes::redact_detail
