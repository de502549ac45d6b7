// SPDX-License-Identifier: MIT
#include "http/connection_limits.h"

#include <gtest/gtest.h>

#include <list>
#include <optional>

namespace hermes::http {
namespace {

TEST(ConnectionLimits, OnePeerStopsAtItsCapOthersStillComeIn) {
  ConnectionLimits limits(4, 2);
  std::list<ConnectionLimits::Slot> held;  // erased without moving any
  held.push_back(*limits.admit("10.0.0.1"));
  held.push_back(*limits.admit("10.0.0.1"));
  EXPECT_FALSE(limits.admit("10.0.0.1"));
  EXPECT_TRUE(limits.admit("10.0.0.2"));  // given back at once
  held.push_back(*limits.admit("10.0.0.2"));
  held.push_back(*limits.admit("10.0.0.3"));
  EXPECT_FALSE(limits.admit("10.0.0.4")) << "the total cap";
  EXPECT_EQ(limits.open(), 4u);
  held.erase(held.begin());
  EXPECT_EQ(limits.open(), 3u);
  EXPECT_TRUE(limits.admit("10.0.0.1"));
}

TEST(ConnectionLimits, AMovedSlotIsGivenBackOnce) {
  ConnectionLimits limits(1, 1);
  {
    std::optional<ConnectionLimits::Slot> first = limits.admit("a");
    ASSERT_TRUE(first);
    ConnectionLimits::Slot moved = std::move(*first);
    first.reset();
    EXPECT_EQ(limits.open(), 1u);
  }
  EXPECT_EQ(limits.open(), 0u);
  EXPECT_TRUE(limits.admit("a"));
}

}  // namespace
}  // namespace hermes::http
