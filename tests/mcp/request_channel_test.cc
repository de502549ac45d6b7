// SPDX-License-Identifier: MIT
// RequestChannel: progress reaches the request that owns its token, and a
// token reused while its first request runs neither steals nor closes that
// request's route.
#include "mcp/request_channel.h"

#include <gtest/gtest.h>

#include <vector>

namespace hermes::mcp {
namespace {

Json progress(const Json& token, int done) {
  return {{"progressToken", token}, {"progress", done}};
}

TEST(RequestChannel, ProgressGoesToTheRequestOfItsTokenWhileItRuns) {
  RequestChannel channel;
  std::vector<Json> a, b;
  {
    auto first = channel.open("a", [&](const Json& n) { a.push_back(n); });
    auto second = channel.open(2, [&](const Json& n) { b.push_back(n); });
    auto none = channel.open(Json(), [&](const Json& n) { b.push_back(n); });
    channel.notify("notifications/progress", progress("a", 1));
    channel.notify("notifications/progress", progress(2, 1));
    channel.notify("notifications/progress", progress("2", 1));  // a string is another token
    channel.notify("notifications/message", {{"progressToken", "a"}});
  }
  channel.notify("notifications/progress", progress("a", 2));
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(a[0]["method"], "notifications/progress");
  EXPECT_EQ(a[0]["params"]["progress"], 1);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0]["params"]["progressToken"], 2);
}

TEST(RequestChannel, AReusedTokenNeitherStealsNorClosesTheFirstRoute) {
  RequestChannel channel;
  std::vector<Json> first_seen, second_seen;
  auto first = channel.open("t", [&](const Json& n) { first_seen.push_back(n); });
  {
    auto second = channel.open("t", [&](const Json& n) { second_seen.push_back(n); });
    channel.notify("notifications/progress", progress("t", 1));
  }
  channel.notify("notifications/progress", progress("t", 2));
  EXPECT_EQ(first_seen.size(), 2u);
  EXPECT_TRUE(second_seen.empty());
}

}  // namespace
}  // namespace hermes::mcp
