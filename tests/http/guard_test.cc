// SPDX-License-Identifier: MIT
#include "http/guard.h"

#include <gtest/gtest.h>

namespace hermes::http {
namespace {

TEST(Guard, LoopbackHostsPassOthersNeedAllowing) {
  Guard guard({"tools.example.com", "pinned.example:9000"}, {});
  EXPECT_TRUE(guard.host_allowed("127.0.0.1:8787"));
  EXPECT_TRUE(guard.host_allowed("localhost"));
  EXPECT_TRUE(guard.host_allowed("[::1]:1"));
  EXPECT_TRUE(guard.host_allowed("TOOLS.example.com:443"));
  EXPECT_TRUE(guard.host_allowed("pinned.example:9000"));
  EXPECT_FALSE(guard.host_allowed("pinned.example:9001"));
  EXPECT_FALSE(guard.host_allowed("evil.example.com"));
  EXPECT_FALSE(guard.host_allowed("127.evil.example"));  // a name, not 127/8
  EXPECT_FALSE(guard.host_allowed("localhost.evil.example"));
  EXPECT_FALSE(guard.host_allowed("127.0.0.1:99999999"));
  EXPECT_FALSE(guard.host_allowed("a b"));
  EXPECT_FALSE(guard.host_allowed(""));
}

TEST(Guard, OriginMissingPassesForeignAndNullFail) {
  Guard guard({}, {"https://app.example"});
  EXPECT_TRUE(guard.origin_allowed(std::nullopt));
  EXPECT_TRUE(guard.origin_allowed("http://127.0.0.1:3000"));
  EXPECT_TRUE(guard.origin_allowed("http://localhost"));
  EXPECT_TRUE(guard.origin_allowed("https://app.example"));
  EXPECT_FALSE(guard.origin_allowed("http://evil.example.com"));
  EXPECT_FALSE(guard.origin_allowed("null"));
  EXPECT_FALSE(guard.origin_allowed("file://localhost"));
  EXPECT_FALSE(guard.origin_allowed("http://127.0.0.1.evil.example"));
}

TEST(Guard, WildcardsOnlyWhenGiven) {
  Guard open({"*"}, {"*"});
  EXPECT_TRUE(open.host_allowed("anything.example"));
  EXPECT_TRUE(open.origin_allowed("http://anything.example"));
}

}  // namespace
}  // namespace hermes::http
