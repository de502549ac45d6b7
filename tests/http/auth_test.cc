// SPDX-License-Identifier: MIT
#include "http/auth.h"

#include <gtest/gtest.h>

namespace hermes::http {
namespace {

TEST(TokenTable, PlainAndDigestEntriesNamePrincipals) {
  // bob's line holds sha256("s3cret").
  auto table = TokenTable::parse(
      "# comment\n"
      "alice:open-sesame\n\n"
      "bob:sha256:1EC1C26B50D5D3C58D9583181AF8076655FE00756BF7285940BA3670F99FCBA0\n"
      "carol:other\r\n");
  ASSERT_TRUE(table) << table.error().message;
  EXPECT_EQ(table->principal("Bearer open-sesame"), "alice");
  EXPECT_EQ(table->principal("Bearer s3cret"), "bob");   // digest given in upper case
  EXPECT_EQ(table->principal("Bearer other"), "carol");  // CRLF line end trimmed
  EXPECT_EQ(table->principal("bearer open-sesame"), "alice");
  EXPECT_EQ(table->principal("Bearer open-sesam"), std::nullopt);
  EXPECT_EQ(table->principal("Basic open-sesame"), std::nullopt);
  EXPECT_EQ(table->principal("Bearer "), std::nullopt);
  EXPECT_EQ(table->principal(""), std::nullopt);
}

TEST(TokenTable, MalformedLinesAreRefusedWithTheirNumber) {
  auto missing = TokenTable::parse("ok:x\nnocolon\n");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("line 2"), std::string::npos);
  EXPECT_FALSE(TokenTable::parse(":token\n"));
  EXPECT_FALSE(TokenTable::parse("a:sha256:abc\n"));
  EXPECT_FALSE(TokenTable::parse("a:sha256:" + std::string(64, 'z') + "\n"));
  EXPECT_FALSE(TokenTable::parse("a:\n"));
}

}  // namespace
}  // namespace hermes::http
