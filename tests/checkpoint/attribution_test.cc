// SPDX-License-Identifier: MIT
// Who a change belongs to when sessions overlap: a tool edit made by
// another session while a shell call runs is that edit's, not the shell
// call's.
#include "testutil/temp_dir.h"

#include <gtest/gtest.h>

#include "checkpoint/checkpoints.h"

namespace hermes::checkpoint {
namespace {

using testing::TempDir;

TEST(Attribution, AToolEditDuringAShellCallIsNotTheShellCallsChange) {
  TempDir home, work;
  work.write("f.txt", "before\n");
  work.write("g.txt", "g\n");
  Checkpoints checkpoints(home.path() + "/checkpoints");
  Settings settings;
  CallInfo shell{.root = work.path(), .tool = "terminal", .session = "a", .shell = true};
  auto running = checkpoints.begin(shell, settings);
  ASSERT_TRUE(running.has_value());

  CallInfo edit{
      .root = work.path(), .tool = "write_file", .session = "b", .paths = {work.file("f.txt")}};
  auto edited = checkpoints.begin(edit, settings);
  ASSERT_TRUE(edited.has_value());
  work.write("f.txt", "by the other session\n");
  ASSERT_TRUE(checkpoints.finish(*edited, settings).has_value());

  work.write("g.txt", "by the shell\n");
  ASSERT_TRUE(checkpoints.finish(*running, settings).has_value());

  auto all = checkpoints.list(work.path());
  ASSERT_TRUE(all.has_value());
  ASSERT_EQ(all->size(), 2u);
  EXPECT_EQ((*all)[0].tool, "terminal");
  EXPECT_FALSE((*all)[0].after.contains("f.txt"));
  EXPECT_TRUE((*all)[0].after.contains("g.txt"));
  EXPECT_TRUE((*all)[1].after.contains("f.txt"));
}

}  // namespace
}  // namespace hermes::checkpoint
