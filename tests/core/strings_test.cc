// SPDX-License-Identifier: MIT
#include "core/strings.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace hermes {
namespace {

TEST(Strings, SplitTrimsAndDropsEmpty) {
  EXPECT_EQ(split(" a, b ,,c ", ','), (std::vector<std::string>{"a", "b", "c"}));
}

TEST(Strings, ParseInt) {
  EXPECT_EQ(parse_int(" 42 "), 42);
  EXPECT_EQ(parse_int("-3"), -3);
  EXPECT_FALSE(parse_int("4x"));
  EXPECT_FALSE(parse_int(""));
}

TEST(Strings, WithCommas) {
  EXPECT_EQ(with_commas(0), "0");
  EXPECT_EQ(with_commas(512000), "512,000");
  EXPECT_EQ(with_commas(1234567), "1,234,567");
}

TEST(Strings, SanitizeUtf8ReplacesInvalidBytes) {
  EXPECT_EQ(sanitize_utf8("ok \xC3\xA9"), "ok \xC3\xA9");
  EXPECT_EQ(sanitize_utf8("a\xFF"
                          "b"),
            "a\xEF\xBF\xBD"
            "b");
  EXPECT_EQ(sanitize_utf8("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
}

TEST(Strings, Utf8PrefixNeverSplitsACodePoint) {
  EXPECT_EQ(utf8_prefix("a\xC3\xA9", 2), "a");
  EXPECT_EQ(utf8_prefix("a\xC3\xA9", 3), "a\xC3\xA9");
  EXPECT_EQ(utf8_length("a\xC3\xA9\xF0\x9F\x98\x80"), 3u);
}

// find_bytes against string_view::find on texts of a two- or three-letter
// alphabet, where needles' bytes recur everywhere: every length up to past
// the short-needle limit, every start offset, matches at both ends.
TEST(Strings, FindBytesAgreesWithFindOnEveryOffset) {
  std::mt19937 rng(7);
  for (const std::string alphabet : {"ab", "a J", "-Y\n"}) {
    std::uniform_int_distribution<size_t> pick(0, alphabet.size() - 1);
    auto random_text = [&](size_t n) {
      std::string out;
      for (size_t i = 0; i < n; ++i) out += alphabet[pick(rng)];
      return out;
    };
    for (int round = 0; round < 200; ++round) {
      const std::string hay = random_text(round % 70);
      const std::string needle =
          round % 3 == 0 && hay.size() > 4 ? hay.substr(hay.size() - 3) : random_text(round % 20);
      for (size_t from = 0; from <= hay.size() + 1; ++from) {
        ASSERT_EQ(find_bytes(hay, needle, from), std::string_view(hay).find(needle, from))
            << "hay '" << hay << "' needle '" << needle << "' from " << from;
      }
    }
  }
}

TEST(Strings, FindBytesFindsNeedlesOfEveryKind) {
  EXPECT_EQ(find_bytes("header eyJhbGci", "eyJ"), 7u);
  EXPECT_EQ(find_bytes("-----BEGIN RSA PRIVATE KEY-----", "PRIVATE KEY-----"), 15u);
  EXPECT_EQ(find_bytes("abc", ""), 0u);
  EXPECT_EQ(find_bytes(std::string_view(), ""), 0u);
  EXPECT_EQ(find_bytes("abc", "", 3), 3u);
  EXPECT_EQ(find_bytes("abc", "abcd"), std::string_view::npos);
  const std::string long_needle(40, 'x');
  EXPECT_EQ(find_bytes(std::string(100, 'y') + long_needle, long_needle), 100u);
}

}  // namespace
}  // namespace hermes
