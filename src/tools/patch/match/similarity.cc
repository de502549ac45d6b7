// SPDX-License-Identifier: MIT
// difflib's matching-block recursion with a rolling DP row per search.
#include "tools/patch/match/similarity.h"

#include "tools/patch/match/text_lines.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

namespace hermes::match {
namespace {

struct Block {
  size_t i = 0, j = 0, size = 0;
};

// Longest common substring of a[alo,ahi) and b[blo,bhi); ties go to the
// smallest i, then the smallest j (difflib's order).
Block longest_match(std::u32string_view a, std::u32string_view b, size_t alo, size_t ahi,
                    size_t blo, size_t bhi, std::vector<size_t>& prev, std::vector<size_t>& cur) {
  Block best{alo, blo, 0};
  std::fill(prev.begin() + static_cast<long>(blo), prev.begin() + static_cast<long>(bhi + 1), 0);
  for (size_t i = alo; i < ahi; ++i) {
    cur[blo] = 0;
    for (size_t j = blo; j < bhi; ++j) {
      size_t k = a[i] == b[j] ? prev[j] + 1 : 0;  // prev[j] holds length ending at (i-1, j-1)
      cur[j + 1] = k;
      if (k > best.size) best = {i + 1 - k, j + 1 - k, k};
    }
    std::swap(prev, cur);
  }
  return best;
}

size_t matching_size(std::u32string_view a, std::u32string_view b) {
  std::vector<size_t> prev(b.size() + 1, 0), cur(b.size() + 1, 0);
  struct Range {
    size_t alo, ahi, blo, bhi;
  };
  std::vector<Range> todo{{0, a.size(), 0, b.size()}};
  size_t total = 0;
  while (!todo.empty()) {
    Range r = todo.back();
    todo.pop_back();
    if (r.alo >= r.ahi || r.blo >= r.bhi) continue;
    Block m = longest_match(a, b, r.alo, r.ahi, r.blo, r.bhi, prev, cur);
    if (m.size == 0) continue;
    total += m.size;
    todo.push_back({r.alo, m.i, r.blo, m.j});
    todo.push_back({m.i + m.size, r.ahi, m.j + m.size, r.bhi});
  }
  return total;
}

}  // namespace

double similarity_ratio(std::u32string_view a, std::u32string_view b) {
  if (a.empty() && b.empty()) return 1.0;
  return 2.0 * static_cast<double>(matching_size(a, b)) / static_cast<double>(a.size() + b.size());
}

double similarity_ratio(std::string_view a, std::string_view b) {
  if (a == b) return 1.0;
  return similarity_ratio(decode_utf8(a), decode_utf8(b));
}

double real_quick_ratio(size_t len_a, size_t len_b) {
  if (len_a + len_b == 0) return 1.0;
  return 2.0 * static_cast<double>(std::min(len_a, len_b)) / static_cast<double>(len_a + len_b);
}

double quick_ratio(std::u32string_view a, std::u32string_view b) {
  if (a.empty() && b.empty()) return 1.0;
  std::unordered_map<char32_t, int> avail;
  for (char32_t c : b) ++avail[c];
  size_t matches = 0;
  for (char32_t c : a) {
    auto it = avail.find(c);
    if (it != avail.end() && it->second > 0) {
      --it->second;
      ++matches;
    }
  }
  return 2.0 * static_cast<double>(matches) / static_cast<double>(a.size() + b.size());
}

CharHistogram::CharHistogram(std::u32string_view s) : size_(s.size()) {
  for (char32_t c : s) {
    if (c < 128) {
      ++ascii_[c];
    } else {
      ++other_[c];
    }
  }
}

size_t code_points(std::string_view utf8) {
  size_t n = 0;
  for (char c : utf8) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

double CharHistogram::quick_ratio(std::string_view utf8) const {
  for (char c : utf8) {
    if (static_cast<unsigned char>(c) >= 0x80)
      return quick_ratio(std::u32string_view(decode_utf8(utf8)));
  }
  if (size_ + utf8.size() == 0) return 1.0;
  std::array<int, 128> ascii = ascii_;
  size_t matches = 0;
  for (char c : utf8) matches += ascii[static_cast<unsigned char>(c)]-- > 0;
  return 2.0 * static_cast<double>(matches) / static_cast<double>(size_ + utf8.size());
}

double CharHistogram::quick_ratio(std::u32string_view line) const {
  if (size_ + line.size() == 0) return 1.0;
  std::array<int, 128> ascii = ascii_;
  std::unordered_map<char32_t, int> used;
  size_t matches = 0;
  for (char32_t c : line) {
    if (c < 128) {
      if (ascii[c]-- > 0) ++matches;
      continue;
    }
    auto it = other_.find(c);
    if (it != other_.end() && used[c]++ < it->second) ++matches;
  }
  return 2.0 * static_cast<double>(matches) / static_cast<double>(size_ + line.size());
}

}  // namespace hermes::match
