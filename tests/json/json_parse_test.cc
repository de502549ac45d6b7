// SPDX-License-Identifier: MIT
// The bounded parser as an attacker feeds it: numbers that overflow,
// integers past 64 bits, nesting far past the limit, oversized text, objects
// with a great many keys.
#include "json/json_parse.h"

#include "proc/forked_call.h"

#include <gtest/gtest.h>

#include <chrono>
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

// `{"k0":0,"k1":1,…}` with `keys` members, each key given `repeats` times
// (the value of a key's last occurrence is its index plus 1000).
std::string object_text(int keys, int repeats = 1) {
  std::string text = "{";
  for (int r = 0; r < repeats; ++r)
    for (int i = 0; i < keys; ++i) {
      int value = r + 1 == repeats && repeats > 1 ? i + 1000 : i;
      text +=
          (text.size() > 1 ? ",\"k" : "\"k") + std::to_string(i) + "\":" + std::to_string(value);
    }
  return text + "}";
}

TEST(JsonParse, RepeatedKeysKeepTheirFirstPlaceAndLastValue) {
  for (const char* text :
       {R"({"b":1,"a":2,"b":3})", R"({"b":1,"a":{"x":[1,{"y":2}]},"b":[3],"a":4})",
        R"({"a":1,"a":2,"a":3})", "{}", R"({"":1,"":2})"}) {
    auto v = parse_json(text);
    ASSERT_TRUE(v) << text;
    EXPECT_EQ(v->dump(), Json::parse(text).dump()) << text;
  }
  // Past the pairwise scan: found by sorting.
  for (int keys : {17, 40, 1000}) {
    std::string text = object_text(keys, 3);
    auto v = parse_json(text);
    ASSERT_TRUE(v);
    EXPECT_EQ(v->dump(), Json::parse(text).dump()) << keys;
    ASSERT_EQ(v->size(), static_cast<size_t>(keys));
    EXPECT_EQ(v->begin().key(), "k0");
    EXPECT_EQ((*v)["k7"], 1007);
  }
}

TEST(JsonParse, NestedValuesSurviveTheirObjectClosing) {
  std::string text = R"({"outer":{"list":[{"a":"x"},{"b":[true,null]}],"n":1.5},"s":"t"})";
  auto v = parse_json(text);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->dump(), Json::parse(text).dump());
  EXPECT_EQ((*v)["outer"]["list"][1]["b"][0], true);
}

// The ordered map's insert finds a key by scanning every member, which made
// parsing quadratic in the keys of one object (60,000 keys: 4 s). 400,000
// keys take well under a second now; they ran for minutes then. The parse
// runs in a child so that a regression fails at the deadline instead of
// holding the suite.
TEST(JsonParse, KeysOfOneObjectParseInLinearTime) {
  const std::string text = object_text(400000);
  proc::ForkedLimits limits;
  limits.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  auto out = proc::run_forked(
      [&](proc::ForkedOutput& pipe) {
        auto v = parse_json(text);
        pipe.write(v ? std::to_string(v->size()) + " " + v->back().dump() : v.error().message);
      },
      limits, {});
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_EQ(*out, "400000 399999");
}

}  // namespace
}  // namespace hermes
