// SPDX-License-Identifier: MIT
// A restore killed with SIGKILL half-way leaves every file either as it was
// or as restored, never torn; the temp files a killed writer may leave are
// removed by the next restore, which completes the job.
#include "fs/atomic_write.h"
#include "testutil/temp_dir.h"

#include <gtest/gtest.h>

#include <dirent.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

#include "checkpoint/checkpoints.h"

namespace hermes::checkpoint {
namespace {

using testing::TempDir;

constexpr int kFiles = 1000;

std::string name_of(int i) { return "f" + std::to_string(i); }
// Large enough that writing them all takes a while.
std::string old_bytes(int i) { return std::string(20000, 'o') + std::to_string(i) + "\n"; }
std::string new_bytes(int i) { return std::string(20000, 'n') + std::to_string(i) + "\n"; }

int temp_files(const std::string& dir) {
  int count = 0;
  DIR* d = ::opendir(dir.c_str());
  while (dirent* e = d ? ::readdir(d) : nullptr) {
    if (std::string(e->d_name).starts_with(".hermes-tmp.")) ++count;
  }
  if (d != nullptr) ::closedir(d);
  return count;
}

TEST(RestoreKill, EachFileIsOldOrNewAndTheNextRestoreFinishes) {
  TempDir home, work;
  for (int i = 0; i < kFiles; ++i) work.write(name_of(i), old_bytes(i));
  Checkpoints checkpoints(home.path() + "/checkpoints");
  Settings settings;
  CallInfo call{.root = work.path(), .tool = "terminal", .summary = "edit", .shell = true};
  auto ticket = checkpoints.begin(call, settings);
  ASSERT_TRUE(ticket.has_value());
  for (int i = 0; i < kFiles; ++i) work.write(name_of(i), new_bytes(i));
  ASSERT_TRUE(checkpoints.finish(*ticket, settings).has_value());

  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto report = checkpoints.restore({.root = work.path(), .id = ticket->id}, settings);
    ::_exit(report.has_value() ? 0 : 1);
  }
  // Kill it once it has put back some files but not all of them.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    if (work.read(name_of(0)) == old_bytes(0)) break;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);

  int restored = 0;
  for (int i = 0; i < kFiles; ++i) {
    std::string now = work.read(name_of(i));
    ASSERT_TRUE(now == old_bytes(i) || now == new_bytes(i)) << name_of(i) << " is torn";
    if (now == old_bytes(i)) ++restored;
  }
  EXPECT_GT(restored, 0);

  // The journal holds the killed restore's unfinished checkpoint; restoring
  // the original checkpoint again finishes the job (the files the killed run
  // wrote count as the agent's, not as hand edits) and clears leftovers.
  auto again =
      checkpoints.restore({.root = work.path(), .id = ticket->id, .force = true}, settings);
  ASSERT_TRUE(again.has_value()) << again.error().message;
  for (int i = 0; i < kFiles; ++i) ASSERT_EQ(work.read(name_of(i)), old_bytes(i)) << name_of(i);
  EXPECT_EQ(temp_files(work.path()), 0);
}

}  // namespace
}  // namespace hermes::checkpoint
