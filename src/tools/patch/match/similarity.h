// SPDX-License-Identifier: MIT
// difflib.SequenceMatcher's ratio over code points, with its two cheap upper
// bounds so callers can shortlist before paying for the real score.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <unordered_map>

namespace hermes::match {

// 2*M/T where M is the size of difflib's matching blocks (recursive longest
// common substring, earliest on ties) and T the total length; 1.0 for two
// empty strings. No junk heuristic (lines are short).
double similarity_ratio(std::u32string_view a, std::u32string_view b);
double similarity_ratio(std::string_view a, std::string_view b);

// Upper bounds of similarity_ratio: by lengths only, and by multiset overlap.
double real_quick_ratio(size_t len_a, size_t len_b);
double quick_ratio(std::u32string_view a, std::u32string_view b);

// Code points in UTF-8 text (bytes that do not continue a sequence).
size_t code_points(std::string_view utf8);

// Code-point counts of one string, to take quick_ratio against many others
// without rebuilding a map each time.
class CharHistogram {
 public:
  explicit CharHistogram(std::u32string_view s);
  double quick_ratio(std::u32string_view other) const;
  // The same on UTF-8 text, without decoding when it is ASCII.
  double quick_ratio(std::string_view utf8) const;
  size_t size() const { return size_; }

 private:
  size_t size_;
  std::array<int, 128> ascii_{};
  std::unordered_map<char32_t, int> other_;
};

}  // namespace hermes::match
