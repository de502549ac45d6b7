// SPDX-License-Identifier: MIT
// A workspace whose files are the target's (an ssh host, a container's own
// files): tool edits are read and restored through the backend's file
// system. Here that is an in-memory one at a path this host does not have,
// so a single read or write of this host's disk would fail the test.
#include "testutil/memory_file_system.h"
#include "testutil/temp_dir.h"

#include <gtest/gtest.h>

#include <cerrno>

#include "checkpoint/checkpoints.h"

namespace hermes::checkpoint {
namespace {

using testing::MemoryFileSystem;
using testing::TempDir;

constexpr const char* kRoot = "/nonexistent-on-this-host/w";

class RemoteCheckpoints : public ::testing::Test {
 protected:
  RemoteCheckpoints() : checkpoints_(home_.path() + "/checkpoints") {
    target_->add_file(at("f.txt"), "one\ntwo\n", 0640);
    target_->add_symlink(at("link"), "f.txt");
    target_->add_dir(at("d"));
  }

  static std::string at(const std::string& rel) { return std::string(kRoot) + "/" + rel; }

  // Begins a tool edit of `rels`, runs `edit` on the target, finishes it.
  uint64_t edit(const std::vector<std::string>& rels, const std::function<void()>& change) {
    CallInfo call{.root = kRoot, .tool = "write_file", .session = "s", .remote = remote()};
    for (const std::string& rel : rels) call.paths.push_back(at(rel));
    auto ticket = checkpoints_.begin(call, settings_);
    EXPECT_TRUE(ticket.has_value()) << ticket.error().message;
    change();
    Status done = checkpoints_.finish(*ticket, settings_);
    EXPECT_TRUE(done.has_value()) << done.error().message;
    return ticket->id;
  }

  Result<RestoreReport> restore(uint64_t id, bool force = false) {
    return checkpoints_.restore(
        {.root = kRoot, .id = id, .force = force, .session = "s", .remote = remote()}, settings_);
  }

  Remote remote() const { return {.target = "ssh://u@elsewhere:22", .files = target_}; }
  fs::FileInfo info(const std::string& rel) const { return *target_->lstat(at(rel)); }

  TempDir home_;
  Checkpoints checkpoints_;
  Settings settings_;
  std::shared_ptr<MemoryFileSystem> target_ = std::make_shared<MemoryFileSystem>();
};

TEST_F(RemoteCheckpoints, AToolEditIsKeptAndRestoredOnTheTarget) {
  uint64_t id = edit({"f.txt", "new/n.txt", "link", "d"}, [&] {
    ASSERT_TRUE(target_->write_atomic(at("f.txt"), "one\nTWO\n", {}).has_value());
    ASSERT_TRUE(target_->set_mode(at("f.txt"), 0600).has_value());
    target_->add_file(at("new/n.txt"), "made\n");
    ASSERT_TRUE(target_->remove(at("link")).has_value());
    target_->add_file(at("link"), "a file now\n");
    ASSERT_TRUE(target_->remove_dir(at("d")).has_value());
  });

  auto all = checkpoints_.list(kRoot, remote().target);
  ASSERT_TRUE(all.has_value());
  ASSERT_EQ(all->size(), 1u);
  EXPECT_EQ((*all)[0].coverage, Coverage::kPaths);
  std::vector<std::string> paths;
  for (const auto& [rel, state] : (*all)[0].after) paths.push_back(rel);
  EXPECT_EQ(paths, (std::vector<std::string>{"d", "f.txt", "link", "new", "new/n.txt"}));
  // Kept apart from this host's files at the same path.
  EXPECT_TRUE(checkpoints_.list(kRoot)->empty());

  auto changes = checkpoints_.changes(kRoot, id, std::nullopt, remote());
  ASSERT_TRUE(changes.has_value()) << changes.error().message;
  EXPECT_EQ(changes->size(), 5u);

  auto report = restore(id);
  ASSERT_TRUE(report.has_value()) << report.error().message;
  EXPECT_TRUE(report->hand_edited.empty());
  EXPECT_TRUE(report->not_restored.empty());
  EXPECT_EQ(target_->content(at("f.txt")), "one\ntwo\n");
  EXPECT_EQ(info("f.txt").mode, 0640u);
  EXPECT_EQ(info("link").type, fs::FileType::kSymlink);
  EXPECT_EQ(*target_->read_link(at("link")), "f.txt");
  EXPECT_EQ(info("d").type, fs::FileType::kDirectory);
  EXPECT_FALSE(target_->lstat(at("new")).has_value());

  // The restore is a checkpoint: restoring it brings the edit back.
  auto undo = restore(report->checkpoint);
  ASSERT_TRUE(undo.has_value()) << undo.error().message;
  EXPECT_EQ(target_->content(at("f.txt")), "one\nTWO\n");
  EXPECT_EQ(target_->content(at("new/n.txt")), "made\n");
  EXPECT_EQ(target_->content(at("link")), "a file now\n");
}

TEST_F(RemoteCheckpoints, AHandEditOnTheTargetIsRefusedNotOverwritten) {
  uint64_t id = edit({"f.txt"}, [&] {
    ASSERT_TRUE(target_->write_atomic(at("f.txt"), "by the agent\n", {}).has_value());
  });
  ASSERT_TRUE(target_->write_atomic(at("f.txt"), "by hand\n", {}).has_value());
  auto refused = restore(id);
  ASSERT_TRUE(refused.has_value());
  EXPECT_EQ(refused->hand_edited, std::vector<std::string>{"f.txt"});
  EXPECT_EQ(refused->checkpoint, 0u);
  EXPECT_EQ(target_->content(at("f.txt")), "by hand\n");

  auto forced = restore(id, /*force=*/true);
  ASSERT_TRUE(forced.has_value());
  EXPECT_EQ(target_->content(at("f.txt")), "one\ntwo\n");
}

TEST_F(RemoteCheckpoints, AWriteTheTargetRefusesIsReportedAndLosesNothing) {
  uint64_t id = edit({"f.txt"}, [&] {
    ASSERT_TRUE(target_->write_atomic(at("f.txt"), "edited\n", {}).has_value());
  });
  target_->fail(MemoryFileSystem::Op::kWrite, 1, ENOSPC);
  auto report = restore(id);
  ASSERT_TRUE(report.has_value()) << report.error().message;
  ASSERT_EQ(report->not_restored.size(), 1u);
  EXPECT_EQ(report->not_restored[0].first, "f.txt");
  EXPECT_NE(report->not_restored[0].second.find("No space left"), std::string::npos)
      << report->not_restored[0].second;
  EXPECT_EQ(target_->content(at("f.txt")), "edited\n");
  // Nothing was left half done: a second try succeeds.
  auto again = restore(id);
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(target_->content(at("f.txt")), "one\ntwo\n");
}

// A folder turned into a link after the edit (by a command, whose changes
// are not captured on a target) never leads the restore outside.
TEST_F(RemoteCheckpoints, ALinkOnTheWayIsRefusedNotFollowed) {
  target_->add_file(at("d/x"), "kept\n");
  uint64_t id = edit(
      {"d/x"}, [&] { ASSERT_TRUE(target_->write_atomic(at("d/x"), "edited\n", {}).has_value()); });
  target_->add_file("/elsewhere/x", "edited\n");
  ASSERT_TRUE(target_->remove(at("d/x")).has_value());
  ASSERT_TRUE(target_->remove_dir(at("d")).has_value());
  target_->add_symlink(at("d"), "/elsewhere");
  auto report = restore(id);
  ASSERT_TRUE(report.has_value()) << report.error().message;
  ASSERT_EQ(report->not_restored.size(), 1u);
  EXPECT_EQ(report->not_restored[0].first, "d/x");
  EXPECT_NE(report->not_restored[0].second.find("a symbolic link on the way"), std::string::npos)
      << report->not_restored[0].second;
  EXPECT_EQ(target_->content("/elsewhere/x"), "edited\n");
}

TEST_F(RemoteCheckpoints, ATargetFileIsNeverHeld) {
  // Large enough to be held on this host, where the old content becomes a
  // delta against the new one left in the workspace. The target's file is
  // stored instead: nothing is read back from a path of this host.
  std::string big(settings_.hold_min_bytes * 2, 'x');
  target_->add_file(at("big"), big);
  uint64_t id = edit({"big"}, [&] {
    ASSERT_TRUE(target_->write_atomic(at("big"), big + "tail", {}).has_value());
  });
  auto back = restore(id);
  ASSERT_TRUE(back.has_value()) << back.error().message;
  EXPECT_TRUE(back->not_restored.empty()) << back->not_restored[0].second;
  EXPECT_EQ(target_->content(at("big")), big);
}

}  // namespace
}  // namespace hermes::checkpoint
