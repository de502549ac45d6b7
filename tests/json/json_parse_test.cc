// SPDX-License-Identifier: MIT
// The bounded parser as an attacker feeds it: numbers that overflow,
// integers past 64 bits, nesting far past the limit, oversized text.
#include "json/json_parse.h"

#include <gtest/gtest.h>

#include <string>

namespace hermes {
namespace {

std::string nested(size_t depth, char open = '[', char close = ']') {
  return std::string(depth, open) + std::string(depth, close);
}

TEST(JsonParse, ParsesOrdinaryJson) {
  auto v = parse_json(R"( {"a": [1, -2, 3.5, 18446744073709551615, "x", null, true]} )");
  ASSERT_TRUE(v) << v.error().message;
  EXPECT_EQ((*v)["a"][3].get<uint64_t>(), 18446744073709551615u);
  EXPECT_EQ((*v)["a"][2].get<double>(), 3.5);
}

TEST(JsonParse, FloatOverflowIsAParseError) {
  for (const char* text : {"1e400", "-1e400", R"({"jsonrpc":"2.0","id":1e400})", "[0.1e99999]"}) {
    auto v = parse_json(text);
    ASSERT_FALSE(v) << text;
    EXPECT_EQ(v.error().code, ErrorCode::kInvalidArgument);
    EXPECT_NE(v.error().message.find("overflow"), std::string::npos) << v.error().message;
  }
}

TEST(JsonParse, IntegerPast64BitsIsAParseError) {
  for (const char* text : {"18446744073709551616", "-9223372036854775809",
                           R"({"id": 123456789012345678901234567890})"}) {
    auto v = parse_json(text);
    ASSERT_FALSE(v) << text;
    EXPECT_NE(v.error().message.find("integer out of range"), std::string::npos)
        << v.error().message;
  }
  // Small exponents and fractions are ordinary doubles.
  EXPECT_TRUE(parse_json("1e300"));
  EXPECT_TRUE(parse_json("-0.0"));
}

TEST(JsonParse, DepthIsBounded) {
  EXPECT_TRUE(parse_json(nested(128)));
  EXPECT_TRUE(parse_json(nested(4), {.max_depth = 4}));
  auto v = parse_json(nested(5), {.max_depth = 4});
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().message, "nesting deeper than 4 levels");
}

TEST(JsonParse, HundredThousandLevelsAreRefusedNotCrashed) {
  std::string arrays(100000, '[');
  EXPECT_FALSE(parse_json(arrays));
  std::string objects;
  for (int i = 0; i < 100000; ++i) objects += R"({"a":)";
  auto v = parse_json(objects);
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().message, "nesting deeper than 128 levels");
}

TEST(JsonParse, SizeIsBounded) {
  auto v = parse_json(R"("0123456789")", {.max_bytes = 8});
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, ErrorCode::kTooLarge);
}

TEST(JsonParse, MalformedTextIsAnErrorWithTheReason) {
  for (const char* text : {"", "{", "[1,]", "{} x", "\"\\ud800\"", "nul"}) {
    auto v = parse_json(text);
    ASSERT_FALSE(v) << text;
    EXPECT_FALSE(v.error().message.empty());
  }
}

}  // namespace
}  // namespace hermes
