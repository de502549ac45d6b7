// SPDX-License-Identifier: MIT
#include "rpc/rpc_protocol.h"

#include <gtest/gtest.h>

namespace hermes::rpc {
namespace {

TEST(RpcProtocol, ParsesToolArgsAndToken) {
  auto request = parse_request(R"({"tool":"read_file","args":{"path":"a"},"token":"t"})");
  ASSERT_TRUE(request);
  EXPECT_EQ(request->tool, "read_file");
  EXPECT_EQ(request->args, Json::parse(R"({"path":"a"})"));
  EXPECT_EQ(request->token, "t");
}

TEST(RpcProtocol, MissingArgsAndTokenDefault) {
  auto request = parse_request(R"({"tool":"x","args":null})");
  ASSERT_TRUE(request);
  EXPECT_TRUE(request->args.is_object());
  EXPECT_TRUE(request->args.empty());
  EXPECT_EQ(request->token, "");
}

TEST(RpcProtocol, RejectsMalformedRequests) {
  EXPECT_FALSE(parse_request("garbage"));
  EXPECT_FALSE(parse_request("[1,2]"));
  EXPECT_FALSE(parse_request(R"({"args":{}})"));
  EXPECT_FALSE(parse_request(R"({"tool":1})"));
  EXPECT_FALSE(parse_request(R"({"tool":"x","args":[1]})"));
  EXPECT_FALSE(parse_request(R"({"tool":"x","token":5})"));
  auto bad = parse_request("{not json");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("parse error"), std::string::npos);
}

TEST(RpcProtocol, TokensCompareExactly) {
  EXPECT_TRUE(tokens_equal("abc123", "abc123"));
  EXPECT_FALSE(tokens_equal("abc124", "abc123"));
  EXPECT_FALSE(tokens_equal("abc12", "abc123"));
  EXPECT_FALSE(tokens_equal("", ""));  // an unset server token never matches
}

TEST(RpcProtocol, RandomHexIsFreshAndHex) {
  std::string a = random_hex(16), b = random_hex(16);
  EXPECT_EQ(a.size(), 32u);
  EXPECT_NE(a, b);
  EXPECT_EQ(a.find_first_not_of("0123456789abcdef"), std::string::npos);
}

TEST(RpcProtocol, FrameReplacesInvalidUtf8) {
  Json value = Json::object();
  value["output"] = std::string("a\xff");
  EXPECT_EQ(frame_response(value), "{\"output\":\"a\xEF\xBF\xBD\"}\n");
}

}  // namespace
}  // namespace hermes::rpc
