// SPDX-License-Identifier: MIT
// Foreground commands that try to outlive their call: a setsid double fork
// (the attacker writes its pid to a file, the test checks /proc) must be gone
// once the call returns, whether it timed out, was cancelled or finished.
#include "proc/proc_test_util.h"
#include "tools/terminal/terminal_harness.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

namespace hermes::terminal {
namespace {

using Clock = std::chrono::steady_clock;
using proc::testing::is_running;
using proc::testing::leave_orphan;
using proc::testing::orphan_from;
using testing::TerminalHarness;

// The attack lives in a script so the foreground guardrails (which refuse a
// leading `setsid`) judge only `sh <script>`, as they would a repo's script.
std::string write_attack(TerminalHarness& h, const std::string& orphan = "sleep 300") {
  return h.work().write("attack.sh", leave_orphan(h.work().file("pid"), orphan) + "\n");
}

TEST(TerminalTree, TimeoutLeavesNoSetsidSurvivor) {
  TerminalHarness h;
  std::string attack = write_attack(h);
  Json r = h.call("terminal", {{"command", "sh " + attack + "; sleep 30"}, {"timeout", 2}});
  EXPECT_EQ(r["exit_code"], 124) << r.dump();
  pid_t survivor = orphan_from(h.work().file("pid"));
  ASSERT_GT(survivor, 0);
  EXPECT_FALSE(is_running(survivor));
}

TEST(TerminalTree, TimeoutKillsATreeThatIgnoresSigterm) {
  TerminalHarness h;
  std::string attack = write_attack(h, "trap \"\" TERM; while :; do sleep 1; done");
  auto start = Clock::now();
  Json r = h.call("terminal",
                  {{"command", "trap '' TERM; sh " + attack + "; sleep 30"}, {"timeout", 2}});
  EXPECT_EQ(r["exit_code"], 124) << r.dump();
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(8));
  pid_t survivor = orphan_from(h.work().file("pid"));
  ASSERT_GT(survivor, 0);
  EXPECT_FALSE(is_running(survivor));
}

TEST(TerminalTree, CancelLeavesNoSetsidSurvivor) {
  TerminalHarness h;
  std::string attack = write_attack(h);
  std::stop_source source;
  std::jthread cancel([&] {
    orphan_from(h.work().file("pid"));
    source.request_stop();
  });
  Json r = h.call("terminal", {{"command", "sh " + attack + "; sleep 30"}}, source.get_token());
  EXPECT_EQ(r["exit_code"], 130) << r.dump();
  pid_t survivor = orphan_from(h.work().file("pid"));
  ASSERT_GT(survivor, 0);
  EXPECT_FALSE(is_running(survivor));
}

// A foreground command's tree ends with its call; what should outlive it is
// started with background=true.
TEST(TerminalTree, FinishedCallLeavesNoSurvivorAndDoesNotWaitForIt) {
  TerminalHarness h;
  std::string attack = write_attack(h);
  auto start = Clock::now();
  // The orphan keeps the output pipe open: the call still ends with `sh`.
  Json r = h.run("sh " + attack + "; echo done");
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(3));
  EXPECT_EQ(r["output"], "done");
  EXPECT_EQ(r["exit_code"], 0);
  pid_t survivor = orphan_from(h.work().file("pid"));
  ASSERT_GT(survivor, 0);
  EXPECT_FALSE(is_running(survivor));
}

}  // namespace
}  // namespace hermes::terminal
