// SPDX-License-Identifier: MIT
// The ledger of the server's own children and the ending of what comes back
// to it (process_tree_test has the escape itself): the server's own children
// and kept processes are never ended, even while children are being born.
#include "proc/child_ledger.h"

#include "proc/proc_test_util.h"
#include "proc/process_tree.h"
#include "proc/spawn.h"
#include "testutil/temp_dir.h"

#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

namespace hermes::proc {
namespace {

using hermes::testing::TempDir;
using std::chrono::milliseconds;
using testing::dies_within;
using testing::is_running;
using testing::leave_orphan;
using testing::orphan_from;

TreeSpec shell(const std::string& script) {
  return TreeSpec{.program = "/bin/sh",
                  .argv = {"/bin/sh", "-c", script},
                  .env = {"PATH=/usr/bin:/bin"},
                  .cwd = "/"};
}

pid_t parent_of(pid_t pid) {
  pid_t parent = -1;
  testing::proc_state(pid, nullptr, &parent);
  return parent;
}

// A process that came back to this one: a sleeper double-forked into a
// session of its own (so the group kill that ends `sh` misses it), whose
// parent then exits.
pid_t adopt_a_sleeper(const TempDir& dir, const std::string& name,
                      const std::string& sleeper = "sleep 300") {
  become_subreaper();
  std::string file = dir.file(name);
  auto child = spawn({.argv = {"/bin/sh", "-c", leave_orphan(file, sleeper)}});
  EXPECT_TRUE(child);
  if (!child) return -1;
  child->wait();
  return orphan_from(file);
}

TEST(ChildLedger, OwnChildrenAndKeptProcessesAreSpared) {
  TempDir dir;
  pid_t adopted = adopt_a_sleeper(dir, "adopted");
  pid_t kept = adopt_a_sleeper(dir, "kept");
  ASSERT_GT(adopted, 0);
  ASSERT_GT(kept, 0);
  EXPECT_EQ(parent_of(adopted), ::getpid());
  keep_adopted(kept);
  auto own = spawn({.argv = {"sleep", "300"}});
  ASSERT_TRUE(own);

  EXPECT_EQ(end_adopted(), 0);
  EXPECT_TRUE(dies_within(adopted, milliseconds(2000)));
  EXPECT_EQ(testing::proc_state(adopted), 0);  // reaped
  EXPECT_TRUE(is_running(kept));
  EXPECT_TRUE(is_running(own->pid()));

  // A kept process that exits is reaped by the next forget_child.
  ::kill(kept, SIGKILL);
  ASSERT_TRUE(dies_within(kept, milliseconds(2000)));  // a zombie now
  own->signal_group(SIGKILL);
  EXPECT_EQ(own->wait().code, -SIGKILL);
  EXPECT_EQ(testing::proc_state(kept), 0);
}

// A process whose main thread exited while another runs shows as a zombie
// that can't be reaped: it is still alive, and it is ended all the same.
TEST(ChildLedger, AProcessWhoseMainThreadExitedIsEndedToo) {
  if (::access("/usr/bin/python3", X_OK) != 0) GTEST_SKIP() << "no /usr/bin/python3";
  TempDir dir;
  std::string script = dir.write("main_thread_exits.py",
                                 "import ctypes, threading, time\n"
                                 "threading.Thread(target=time.sleep, args=(300,)).start()\n"
                                 "ctypes.CDLL(None).syscall(60, 0)\n");
  pid_t ghost = adopt_a_sleeper(dir, "ghost", "/usr/bin/python3 " + script);
  ASSERT_GT(ghost, 0);
  std::this_thread::sleep_for(milliseconds(300));
  EXPECT_EQ(end_adopted(), 0);
  EXPECT_EQ(testing::proc_state(ghost), 0);
}

// An adopted process that exits on its own is reaped by the ledger's thread
// within two passes, not left a zombie.
TEST(ChildLedger, AnAdoptedProcessThatExitsIsReaped) {
  TempDir dir;
  pid_t brief = adopt_a_sleeper(dir, "brief", "sleep 0.2");
  ASSERT_GT(brief, 0);
  auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (testing::proc_state(brief) != 0 && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(milliseconds(50));
  }
  EXPECT_EQ(testing::proc_state(brief), 0);
}

// Children are born on other threads while ends run back to back: none is
// ever taken for an adopted process (each exits on its own, code 0).
TEST(ChildLedger, AChildBeingBornIsNeverTakenForAnOrphan) {
  become_subreaper();
  std::atomic<bool> done{false};
  std::thread ender([&] {
    while (!done) end_adopted();
  });
  std::vector<std::thread> spawners;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 3; ++t) {
    spawners.emplace_back([&, t] {
      for (int i = 0; i < 40; ++i) {
        if (t == 2) {
          auto tree = ProcessTree::launch(shell("sleep 0.01"));
          std::optional<int> code;
          while (tree && tree->read_status(code) && !code) ::usleep(1000);
          if (!tree || code != 0) ++wrong;
          continue;
        }
        auto child = spawn({.argv = {"sh", "-c", "sleep 0.01"},
                            .terminal = t == 0 ? TerminalMode::kPipe : TerminalMode::kPty});
        if (!child || child->wait().code != 0) ++wrong;
      }
    });
  }
  for (auto& s : spawners) s.join();
  done = true;
  ender.join();
  EXPECT_EQ(wrong, 0);
}

}  // namespace
}  // namespace hermes::proc
