// SPDX-License-Identifier: MIT
#include "core/strings.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace hermes
