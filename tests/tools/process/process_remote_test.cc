// SPDX-License-Identifier: MIT
// Background commands on an ssh host: killing the local ssh client does not
// end them there, so `process kill` and the session's end must.
#include "testutil/sshd_server.h"
#include "tools/process/process.h"
#include "tools/terminal/terminal_harness.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <thread>

namespace hermes::process {
namespace {

using testing::shared_sshd;
using testing::TerminalHarness;

// Waits up to 5 s until a process matching `pattern` (a pgrep -f regex)
// exists (`present`) or none does; true when that happened.
bool wait_for(const std::string& pattern, bool present) {
  std::string probe = "pgrep -f '" + pattern + "' >/dev/null";
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while ((std::system(probe.c_str()) == 0) != present) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

std::unique_ptr<TerminalHarness> ssh_harness() {
  auto h = std::make_unique<TerminalHarness>(shared_sshd().terminal_yaml());
  register_process(h->registry());
  return h;
}

std::string start(TerminalHarness& h, const std::string& command) {
  Json r = h.call("terminal", {{"command", command}, {"background", true}});
  EXPECT_EQ(r["output"], "Background process started") << r.dump();
  return r.value("session_id", "");
}

TEST(ProcessOnSsh, KillEndsTheRemoteCommand) {
  HERMES_REQUIRE_SSHD();
  auto h = ssh_harness();
  std::string id = start(*h, "sleep 62.4242; true");
  // Brackets keep pgrep from matching its own shell.
  ASSERT_TRUE(wait_for("sleep 62[.]4242", true)) << "the remote command never started";
  Json killed = h->call("process", {{"action", "kill"}, {"session_id", id}});
  EXPECT_EQ(killed["status"], "killed") << killed.dump();
  EXPECT_TRUE(wait_for("sleep 62[.]4242", false)) << "the remote sleep survived process kill";
}

TEST(ProcessOnSsh, SessionEndEndsTheRemoteCommand) {
  HERMES_REQUIRE_SSHD();
  auto h = ssh_harness();
  start(*h, "sleep 63.4242; true");
  ASSERT_TRUE(wait_for("sleep 63[.]4242", true)) << "the remote command never started";
  h.reset();
  EXPECT_TRUE(wait_for("sleep 63[.]4242", false)) << "the remote sleep survived the session";
}

}  // namespace
}  // namespace hermes::process
