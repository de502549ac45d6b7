// SPDX-License-Identifier: MIT
#include "proc/run.h"

#include "proc/proc_test_util.h"

#include <gtest/gtest.h>

#include <poll.h>

#include <thread>

namespace hermes::proc {
namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

TEST(RunBounded, TimeoutKillsGrandchildren) {
  auto child = spawn({.argv = {"sh", "-c", "sleep 30 & sleep 30; echo never"}});
  ASSERT_TRUE(child.has_value());
  auto start = Clock::now();
  std::string out;
  RunOutcome r = run_bounded(*child, {.timeout = milliseconds(200)}, {},
                             [&](std::string_view b) { out += b; });
  EXPECT_EQ(r.end, RunEnd::kTimedOut);
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(3));
  EXPECT_EQ(out, "");
  for (int i = 0; i < 200 && testing::group_running(child->pid()); ++i) ::usleep(5000);
  EXPECT_FALSE(testing::group_running(child->pid()));
}

TEST(RunBounded, StopTokenCancels) {
  auto child = spawn({.argv = {"sleep", "30"}});
  ASSERT_TRUE(child.has_value());
  std::stop_source source;
  std::jthread canceller([&] {
    std::this_thread::sleep_for(milliseconds(100));
    source.request_stop();
  });
  auto start = Clock::now();
  RunOutcome r = run_bounded(*child, {}, source.get_token(), [](std::string_view) {});
  EXPECT_EQ(r.end, RunEnd::kCancelled);
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(3));
}

TEST(RunBounded, DrainStopsWhenGrandchildHoldsPipe) {
  auto child = spawn({.argv = {"sh", "-c", "(sleep 30 &) ; echo hi"}});
  ASSERT_TRUE(child.has_value());
  auto start = Clock::now();
  std::string out;
  RunOutcome r = run_bounded(*child, {.timeout = milliseconds(10000)}, {},
                             [&](std::string_view b) { out += b; });
  EXPECT_EQ(r.end, RunEnd::kExited);
  EXPECT_EQ(out, "hi\n");
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(2));
}

TEST(RunBounded, ClosedStdoutStillWaitsForExit) {
  auto child = spawn({.argv = {"sh", "-c", "exec >&- 2>&-; sleep 0.2; exit 4"}});
  ASSERT_TRUE(child.has_value());
  RunOutcome r = run_bounded(*child, {.timeout = milliseconds(5000)}, {}, [](std::string_view) {});
  EXPECT_EQ(r.end, RunEnd::kExited);
  EXPECT_EQ(r.status.code, 4);
}

TEST(RunBounded, LargeOutputIsStreamed) {
  auto child = spawn({.argv = {"sh", "-c", "head -c 50000000 /dev/zero"}});
  ASSERT_TRUE(child.has_value());
  uint64_t total = 0;
  RunOutcome r = run_bounded(*child, {.timeout = milliseconds(20000)}, {},
                             [&](std::string_view b) { total += b.size(); });
  EXPECT_EQ(r.end, RunEnd::kExited);
  EXPECT_EQ(total, 50000000u);
}

TEST(TerminateGroup, EscalatesToKill) {
  auto child = spawn({.argv = {"sh", "-c", "trap '' TERM; echo ready; while :; do sleep 1; done"}});
  ASSERT_TRUE(child.has_value());
  char buf[16];
  pollfd p{child->output_fd(), POLLIN, 0};
  ::poll(&p, 1, 2000);
  ASSERT_GT(::read(child->output_fd(), buf, sizeof buf), 0);
  ExitStatus st = terminate_group(*child, milliseconds(100));
  EXPECT_EQ(st.code, -SIGKILL);
}

}  // namespace
}  // namespace hermes::proc
