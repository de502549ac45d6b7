// SPDX-License-Identifier: MIT
// The eight-byte tests against a byte-by-byte reference, on random words and
// on words made of the bytes at the edges of each test.
#include "core/word_scan.h"

#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <random>

namespace hermes::word_scan {
namespace {

uint64_t reference(uint64_t word, bool (*passes)(unsigned char)) {
  uint64_t out = 0;
  for (int k = 0; k < 8; ++k) {
    if (passes(static_cast<unsigned char>(word >> (8 * k)))) out |= 0x80ull << (8 * k);
  }
  return out;
}

std::vector<uint64_t> words() {
  std::mt19937_64 rng(20261203);
  constexpr std::array<unsigned char, 18> kEdges = {0x00, 0x01, 0x1f, 0x20, '/',  '0',
                                                    '9',  ':',  '@',  'A',  'Z',  '\\',
                                                    '_',  'a',  'z',  0x7f, 0x80, 0xff};
  std::vector<uint64_t> out;
  for (int i = 0; i < 200000; ++i) {
    uint64_t word = rng();
    if (i % 2) {
      std::array<unsigned char, 8> bytes;
      for (auto& b : bytes) b = kEdges[rng() % kEdges.size()];
      std::memcpy(&word, bytes.data(), sizeof word);
    }
    out.push_back(word);
  }
  return out;
}

TEST(WordScan, PerByteAnswersMatchTheReference) {
  for (uint64_t word : words()) {
    ASSERT_EQ(zero_bytes(word), reference(word, [](unsigned char b) { return b == 0; }));
    ASSERT_EQ(bytes_equal(word, '\\'), reference(word, [](unsigned char b) { return b == '\\'; }));
    ASSERT_EQ(bytes_between(word, '0' - 1, '9' + 1),
              reference(word, [](unsigned char b) { return b >= '0' && b <= '9'; }));
  }
}

TEST(WordScan, WordAnswersMatchTheReference) {
  for (uint64_t word : words()) {
    ASSERT_EQ(any_below(word, 0x20) != 0,
              reference(word, [](unsigned char b) { return b < 0x20; }) != 0);
    ASSERT_EQ(any_equal(word, '"') != 0,
              reference(word, [](unsigned char b) { return b == '"'; }) != 0);
    ASSERT_EQ(any_high(word) != 0, reference(word, [](unsigned char b) { return b >= 0x80; }) != 0);
  }
}

TEST(WordScan, AllAsciiLooksAtEveryByte) {
  std::string text(37, 'a');
  EXPECT_TRUE(all_ascii(text));
  for (size_t i = 0; i < text.size(); ++i) {
    std::string bad = text;
    bad[i] = static_cast<char>(0xC3);
    EXPECT_FALSE(all_ascii(bad)) << i;
  }
}

}  // namespace
}  // namespace hermes::word_scan
