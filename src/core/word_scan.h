// SPDX-License-Identifier: MIT
// Eight bytes at a time: tests on a 64-bit word that say whether any of its
// bytes is below a value, equal to one, or not ASCII. The hot text passes
// (JSON escaping, the redaction pre-scans, UTF-8 counting) skip whole words
// of plain text with them and look at single bytes only where a word says
// one may matter. Each test is exact as a yes/no for the word: a borrow
// between bytes only starts at a byte that itself passes the test.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace hermes::word_scan {

// Byte k of a loaded word is its bits 8k..8k+7: the scans shift and count
// trailing zeros in memory order.
static_assert(std::endian::native == std::endian::little);

constexpr uint64_t kOnes = 0x0101010101010101ull;
constexpr uint64_t kHighBits = 0x8080808080808080ull;

inline uint64_t load(const char* p) {
  uint64_t word;
  std::memcpy(&word, p, sizeof word);
  return word;
}

// Nonzero when some byte of `word` is below `n` (n ≤ 128).
constexpr uint64_t any_below(uint64_t word, uint8_t n) {
  return (word - kOnes * n) & ~word & kHighBits;
}

// Nonzero when some byte of `word` equals `c`.
constexpr uint64_t any_equal(uint64_t word, uint8_t c) { return any_below(word ^ (kOnes * c), 1); }

// Nonzero when some byte of `word` is 0x80 or above.
constexpr uint64_t any_high(uint64_t word) { return word & kHighBits; }

// Per-byte answers (the high bit of each byte that passes, and no other
// bit), exact for every byte: no arithmetic crosses a byte.
constexpr uint64_t kLow7 = 0x7F7F7F7F7F7F7F7Full;

// The bytes of `word` that are zero.
constexpr uint64_t zero_bytes(uint64_t word) { return ~(((word & kLow7) + kLow7) | word | kLow7); }

// The bytes of `word` that equal `c`.
constexpr uint64_t bytes_equal(uint64_t word, uint8_t c) { return zero_bytes(word ^ (kOnes * c)); }

// The bytes of `word` strictly between `lo` and `hi` (hi ≤ 128); a byte of
// 0x80 or above never is.
constexpr uint64_t bytes_between(uint64_t word, uint8_t lo, uint8_t hi) {
  const uint64_t low = word & kLow7;
  return (kOnes * (127 + hi) - low) & ~word & (low + kOnes * (127 - lo)) & kHighBits;
}

// True when every byte of `text` is ASCII.
inline bool all_ascii(std::string_view text) {
  size_t i = 0;
  for (; i + 8 <= text.size(); i += 8)
    if (any_high(load(text.data() + i))) return false;
  for (; i < text.size(); ++i)
    if (static_cast<unsigned char>(text[i]) >= 0x80) return false;
  return true;
}

}  // namespace hermes::word_scan
