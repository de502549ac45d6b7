// SPDX-License-Identifier: MIT
#include "mcp/lenient_json.h"

#include <gtest/gtest.h>

namespace hermes::mcp {
namespace {

TEST(LenientJson, ParsesOrdinaryJson) {
  auto v = parse_lenient(R"({"a": "\u00e9\ud83d\ude00"})");
  ASSERT_TRUE(v);
  EXPECT_EQ((*v)["a"].get<std::string>(), "\xC3\xA9\xF0\x9F\x98\x80");
}

TEST(LenientJson, LoneSurrogatesBecomeWtf8Bytes) {
  auto v = parse_lenient(R"({"a": "x\ud800y", "b": ["\udfff"]})");
  ASSERT_TRUE(v);
  EXPECT_EQ((*v)["a"].get<std::string>(), "x\xED\xA0\x80y");
  EXPECT_EQ((*v)["b"][0].get<std::string>(), "\xED\xBF\xBF");
}

TEST(LenientJson, EscapedBackslashBeforeUIsNotAnEscape) {
  auto v = parse_lenient(R"({"a": "\\ud800"})");
  ASSERT_TRUE(v);
  EXPECT_EQ((*v)["a"].get<std::string>(), "\\ud800");
}

TEST(LenientJson, MalformedStaysAnError) {
  EXPECT_FALSE(parse_lenient("{\"a\": "));
  EXPECT_FALSE(parse_lenient("{\"a\": \"\\ud800\" x}"));
}

}  // namespace
}  // namespace hermes::mcp
