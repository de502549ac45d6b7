// SPDX-License-Identifier: MIT
// A file or folder this process may not read (a container's, in a workspace
// bound into it) never stops a checkpoint: it is kept by its metadata, and
// the call's other changes are captured and restored.
#include "fs/atomic_write.h"
#include "testutil/temp_dir.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "checkpoint/checkpoints.h"

namespace hermes::checkpoint {
namespace {

using testing::TempDir;

// Run in a child that cannot read `secret.txt` nor enter `locked`: 0 when
// a shell call's checkpoint captured and restored `open.txt`, else the step
// that failed.
int capture_beside_unreadable(const TempDir& home, const TempDir& work) {
  if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) return 2;
  Checkpoints checkpoints(home.path() + "/checkpoints");
  Settings settings;
  CallInfo shell{.root = work.path(), .tool = "terminal", .shell = true};
  auto ticket = checkpoints.begin(shell, settings);
  if (!ticket) return 3;
  if (!fs::atomic_write(work.file("open.txt"), "changed\n")) return 4;
  if (!checkpoints.finish(*ticket, settings)) return 5;
  auto all = checkpoints.list(work.path());
  if (!all || all->size() != 1 || !all->back().after.contains("open.txt")) return 6;
  auto report = checkpoints.restore({.root = work.path(), .id = ticket->id}, settings);
  if (!report || report->restored != std::vector<std::string>{"open.txt"}) return 7;
  return fs::read_whole_file(work.file("open.txt")).value_or("") == "open\n" ? 0 : 8;
}

TEST(Unreadable, AFileOrFolderThisProcessMayNotReadIsKeptByItsMetadata) {
  TempDir home, work;
  work.write("open.txt", "open\n");
  work.write("secret.txt", "secret\n");
  work.write("locked/inner.txt", "inner\n");
  // Root reads whatever the modes say: the child drops to nobody, for whom
  // the rest is open.
  bool root = ::geteuid() == 0;
  ::chmod(home.path().c_str(), 0777);
  ::chmod(work.path().c_str(), 0777);
  ::chmod(work.file("open.txt").c_str(), 0666);
  ::chmod(work.file("secret.txt").c_str(), root ? 0600 : 0);
  ::chmod(work.file("locked").c_str(), root ? 0700 : 0);
  pid_t pid = ::fork();
  if (pid == 0) ::_exit(capture_beside_unreadable(home, work));
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ::chmod(work.file("locked").c_str(), 0700);  // for the removal
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0)
      << "2 setuid, 3 begin, 4 write, 5 finish, 6 list, 7 restore, 8 content";
}

}  // namespace
}  // namespace hermes::checkpoint
