// SPDX-License-Identifier: MIT
// A restore killed with SIGKILL half-way leaves every file either as it was
// or as restored, never torn, and no temp file in the workspace (files are
// written in the store's stage and renamed into place); what it left in the
// stage is removed by the next restore, which completes the job.
#include "fs/atomic_write.h"
#include "testutil/temp_dir.h"

#include <gtest/gtest.h>

#include <dirent.h>
#include <signal.h>
#include <sys/inotify.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "checkpoint/checkpoints.h"

namespace hermes::checkpoint {
namespace {

using testing::TempDir;

constexpr int kFiles = 1000;

std::string name_of(int i) { return "f" + std::to_string(i); }
// Large enough that writing them all takes a while.
std::string old_bytes(int i) { return std::string(20000, 'o') + std::to_string(i) + "\n"; }
std::string new_bytes(int i) { return std::string(20000, 'n') + std::to_string(i) + "\n"; }

// Entries of `dir` that are not `f<number>`.
std::vector<std::string> strays(const std::string& dir) {
  std::vector<std::string> out;
  DIR* d = ::opendir(dir.c_str());
  while (dirent* e = d ? ::readdir(d) : nullptr) {
    std::string name = e->d_name;
    bool ours = name.size() > 1 && name[0] == 'f' &&
                name.find_first_not_of("0123456789", 1) == std::string::npos;
    if (name != "." && name != ".." && !ours) out.push_back(name);
  }
  if (d != nullptr) ::closedir(d);
  return out;
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
  EXPECT_EQ(strays(work.path()), std::vector<std::string>{});

  // The journal holds the killed restore's unfinished checkpoint; restoring
  // the original checkpoint again finishes the job (the files the killed run
  // wrote count as the agent's, not as hand edits) and clears leftovers.
  auto again =
      checkpoints.restore({.root = work.path(), .id = ticket->id, .force = true}, settings);
  ASSERT_TRUE(again.has_value()) << again.error().message;
  for (int i = 0; i < kFiles; ++i) ASSERT_EQ(work.read(name_of(i)), old_bytes(i)) << name_of(i);
  EXPECT_EQ(strays(work.path()), std::vector<std::string>{});
  EXPECT_EQ(strays(checkpoints.journal_of(work.path()).dir() + "/stage"),
            std::vector<std::string>{});
}

// No name but the restored files' own ever appears in the workspace, so
// nothing a kill could leave behind: every name created there, as inotify
// reports it, is a file being restored.
TEST(RestoreKill, ARestoreCreatesNoOtherNameInTheWorkspace) {
  TempDir home, work;
  for (int i = 0; i < 50; ++i) work.write(name_of(i), old_bytes(i));
  Checkpoints checkpoints(home.path() + "/checkpoints");
  Settings settings;
  CallInfo call{.root = work.path(), .tool = "terminal", .summary = "edit", .shell = true};
  auto ticket = checkpoints.begin(call, settings);
  ASSERT_TRUE(ticket.has_value());
  for (int i = 0; i < 50; ++i) work.write(name_of(i), new_bytes(i));
  ASSERT_TRUE(checkpoints.finish(*ticket, settings).has_value());

  int watch = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  ASSERT_GE(watch, 0);
  ASSERT_GE(::inotify_add_watch(watch, work.path().c_str(), IN_CREATE | IN_MOVED_TO), 0);
  auto report = checkpoints.restore({.root = work.path(), .id = ticket->id}, settings);
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->restored.size(), 50u);
  std::vector<std::string> names;
  alignas(inotify_event) char buf[65536];
  for (ssize_t n; (n = ::read(watch, buf, sizeof buf)) > 0;) {
    for (ssize_t at = 0; at < n;) {
      auto* event = reinterpret_cast<inotify_event*>(buf + at);
      if (event->len > 0) names.push_back(event->name);
      at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
    }
  }
  ::close(watch);
  EXPECT_EQ(names.size(), 50u);
  for (const std::string& name : names) EXPECT_TRUE(name.starts_with("f")) << name;
}

}  // namespace
}  // namespace hermes::checkpoint
