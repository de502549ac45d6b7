// SPDX-License-Identifier: MIT
#include "core/cpus.h"

#include <gtest/gtest.h>

#include <sched.h>

#include <thread>

namespace hermes {
namespace {

TEST(UsableCpus, FollowsTheAffinityMask) {
  ASSERT_GE(usable_cpus(), 1u);
  size_t pinned = 0;
  // A thread of its own: the mask set here is that thread's alone.
  std::thread([&] {
    cpu_set_t allowed;
    ASSERT_EQ(sched_getaffinity(0, sizeof allowed, &allowed), 0);
    int first = 0;
    while (!CPU_ISSET(first, &allowed)) ++first;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(first, &one);
    ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
    pinned = usable_cpus();
  }).join();
  EXPECT_EQ(pinned, 1u);
}

}  // namespace
}  // namespace hermes
