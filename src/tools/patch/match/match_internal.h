// SPDX-License-Identifier: MIT
// Shared between the exact/normalised tiers and the similarity tiers: the
// file and pattern split into lines, with per-normalisation keys cached.
#pragma once

#include "tools/patch/match/strategies.h"
#include "tools/patch/match/text_lines.h"

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hermes::match::detail {

// How a line is normalised before comparison.
enum class Key { kRaw, kTrim, kLstrip, kFoldTrim };
inline constexpr size_t kKeyKinds = 4;

std::string_view key_view(std::string_view line, Key key, std::string& storage);

// The file: lines and, per Key, each line's normalised view and its hash,
// computed on first use.
class Subject {
 public:
  explicit Subject(std::string_view text) : text_(text) {}
  std::string_view text() const { return text_; }
  // Split on first use: the exact tier never needs it.
  const std::vector<LineSpan>& lines() const {
    if (!split_) {
      lines_ = split_lines(text_);
      split_ = true;
    }
    return lines_;
  }
  std::string_view line(size_t i) const {
    const LineSpan& l = lines()[i];
    return text_.substr(l.begin, l.end - l.begin);
  }
  const std::vector<std::string_view>& keys(Key key);
  const std::vector<size_t>& hashes(Key key);

 private:
  struct Cache {
    std::vector<std::string> storage;
    std::vector<std::string_view> views;
    std::vector<size_t> hashes;
  };
  std::string_view text_;
  mutable std::vector<LineSpan> lines_;
  mutable bool split_ = false;
  std::array<std::unique_ptr<Cache>, kKeyKinds> caches_;
};

struct Pattern {
  std::string_view text;
  std::vector<std::string_view> lines;  // without the final newline's empty line
  bool trailing_newline = false;
};

Pattern make_pattern(std::string_view text);

// The byte span of file lines [first, first + count) for `pattern`.
Span block_span(const Subject& file, const Pattern& pattern, size_t first);

// Starts of every window whose line j equals pattern line j under kinds[j].
std::vector<size_t> find_line_blocks(Subject& file, const Pattern& pattern,
                                     const std::vector<Key>& kinds);

// Tiers 8 and 9: window starts. `literal` marks pattern lines that must be
// equal after trimming and folding (MatchOptions::literal_lines).
std::vector<size_t> block_anchor_starts(Subject& file, const Pattern& pattern,
                                        const std::vector<bool>& literal);
std::vector<size_t> context_aware_starts(Subject& file, const Pattern& pattern,
                                         const std::vector<bool>& literal);

}  // namespace hermes::match::detail
