// SPDX-License-Identifier: MIT
// The unicode_normalized tier's folding (smart quotes, dashes, ellipsis,
// exotic spaces, minus sign to ASCII) with a map back to original offsets.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hermes::match {

struct FoldedText {
  std::string text;
  // For each byte of `text`: the original range of the unit it came from.
  std::vector<size_t> unit_begin;
  std::vector<size_t> unit_end;
};

// Folds `s` and keeps the offset map.
FoldedText fold_unicode_mapped(std::string_view s);
// Folds `s` (no map); returns `s` unchanged when it is ASCII.
std::string fold_unicode(std::string_view s);
// True when `s` holds a character fold_unicode changes.
bool has_foldable(std::string_view s);

}  // namespace hermes::match
