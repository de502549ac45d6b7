// SPDX-License-Identifier: MIT
#include "proc/run.h"

#include "proc/proc_test_util.h"
#include "testutil/temp_dir.h"

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
  Termination st = terminate_group(*child, milliseconds(100));
  EXPECT_EQ(st.status.code, -SIGKILL);
  EXPECT_TRUE(st.forced);
}

// Waits (bounded) for the child's first output: its traps are set.
void await_ready(ChildProcess& child) {
  pollfd p{child.output_fd(), POLLIN, 0};
  ::poll(&p, 1, 5000);
  char buf[16];
  ASSERT_GT(::read(child.output_fd(), buf, sizeof buf), 0);
}

// A foreground command is interrupted as by Ctrl-C, and its cleanup (a
// lock file removed, here a line written) finishes within the grace.
TEST(RunBounded, AForegroundStopIsAnInterruptWithTimeToCleanUp) {
  hermes::testing::TempDir dir;
  auto child = spawn({.argv = {"bash", "-c",
                               "trap 'sleep 0.3; echo cleaned > " + dir.file("done") +
                                   "; exit 3' INT; echo ready; while :; do sleep 0.05; done"},
                      .whole_tree = true});
  ASSERT_TRUE(child.has_value());
  await_ready(*child);
  std::stop_source source;
  source.request_stop();
  RunOutcome r =
      run_bounded(*child, {.kill_grace = std::chrono::seconds(10), .stop_signal = SIGINT},
                  source.get_token(), [](std::string_view) {});
  EXPECT_EQ(r.end, RunEnd::kCancelled);
  EXPECT_FALSE(r.forced);
  EXPECT_EQ(r.status.code, 3);
  EXPECT_EQ(dir.read("done"), "cleaned\n");
}

// A shell's `&` jobs ignore SIGINT: once the shell is gone they get SIGTERM,
// not a wait for the whole grace and SIGKILL.
TEST(TerminateGroup, WhatOutlivesAnInterruptedShellGetsSigterm) {
  auto child = spawn({.argv = {"sh", "-c", "sleep 60 & echo ready; wait"}, .whole_tree = true});
  ASSERT_TRUE(child.has_value());
  await_ready(*child);
  Termination st = terminate_group(*child, std::chrono::seconds(30), SIGINT);
  EXPECT_EQ(st.status.code, -SIGINT);
  EXPECT_FALSE(st.forced);
  EXPECT_TRUE(child->survivors().empty());
}

}  // namespace
}  // namespace hermes::proc
