// SPDX-License-Identifier: MIT
// security.command_write_paths attacked with links (docs/containment.md,
// Commands): an entry that is a link, or lies under one, is refused by name
// instead of widening the fence to wherever the link points, and the rule of
// an accepted entry is bound to the folder it named, so a swap racing the
// session start or made after it cannot redirect it.
#include "backend/command_fence.h"

#include "proc/write_fence.h"
#include "testutil/temp_dir.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <thread>

namespace hermes::testing {
namespace {

namespace fs = std::filesystem;

// True when a child fenced by `fence_fd` can create `file`.
bool fenced_child_creates(int fence_fd, const std::string& file) {
  pid_t pid = ::fork();
  if (pid == 0) {
    if (!proc::WriteFence::enter(fence_fd)) ::_exit(2);
    int fd = ::open(file.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
    ::_exit(fd >= 0 ? 0 : 1);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) != 2) << "the child could not be fenced";
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

class CommandWritePaths : public ::testing::Test {
 protected:
  void SetUp() override {
    if (proc::landlock_support().abi == 0) GTEST_SKIP() << proc::landlock_support().why_not;
    real_ = fs::canonical(base_.path()).string();  // a linked $TMPDIR would be refused
    for (const char* dir : {"root", "cache", "secret"}) fs::create_directories(at(dir));
  }
  Result<std::unique_ptr<backend::CommandFence>> fence(const std::string& entry) const {
    return backend::CommandFence::create(
        {.root = at("root"), .extra_write_paths = {entry}, .host_temp_dir = real_});
  }
  // The refusal the fence gives for `entry` (empty when it was built).
  std::string refusal(const std::string& entry) const {
    auto made = fence(entry);
    EXPECT_TRUE(made.has_value()) << made.error().message;
    if (!made) return "";
    auto fd = (*made)->write_fence_fd();
    return fd ? "" : fd.error().message;
  }
  std::string at(const std::string& relative) const { return real_ + "/" + relative; }
  TempDir base_;
  std::string real_;
};

TEST_F(CommandWritePaths, AnEntryThatIsALinkIsRefusedByName) {
  fs::create_directory_symlink(at("secret"), at("cache-link"));
  std::string text = refusal(at("cache-link"));
  EXPECT_NE(text.find("Commands are refused"), std::string::npos) << text;
  EXPECT_NE(text.find("entry '" + at("cache-link") + "'"), std::string::npos) << text;
  EXPECT_NE(text.find("symbolic link"), std::string::npos) << text;
  EXPECT_NE(text.find("'" + fs::canonical(at("secret")).string() + "'"),
            std::string::npos)
      << text;  // the real path to list instead
  EXPECT_NE(text.find("HERMES_LANDLOCK=off"), std::string::npos) << text;
}

TEST_F(CommandWritePaths, AnEntryUnderALinkedParentIsRefused) {
  fs::create_directories(at("secret/sub"));
  fs::create_directory_symlink(at("secret"), at("parent-link"));
  std::string text = refusal(at("parent-link/sub"));
  EXPECT_NE(text.find("'" + at("parent-link") + "' -> "), std::string::npos) << text;
}

TEST_F(CommandWritePaths, AnEntryWithDotDotIsRefused) {
  std::string text = refusal(at("cache/../secret"));
  EXPECT_NE(text.find("not a normalized path"), std::string::npos) << text;
}

TEST_F(CommandWritePaths, ARealEntryWidensTheFenceToItOnly) {
  auto made = fence(at("cache") + "/");
  ASSERT_TRUE(made.has_value()) << made.error().message;
  auto fd = (*made)->write_fence_fd();
  ASSERT_TRUE(fd.has_value()) << fd.error().message;
  EXPECT_TRUE(fenced_child_creates(*fd, at("cache/a")));
  EXPECT_TRUE(fenced_child_creates(*fd, at("root/a")));
  EXPECT_FALSE(fenced_child_creates(*fd, at("secret/a")));
}

// Swapped for a link after the session started: the rule stays on the
// folder the entry named, so writing through the entry reaches nothing.
TEST_F(CommandWritePaths, ALinkSwappedInAfterTheStartLeadsNowhere) {
  auto made = fence(at("cache"));
  ASSERT_TRUE(made.has_value()) << made.error().message;
  auto fd = (*made)->write_fence_fd();
  ASSERT_TRUE(fd.has_value()) << fd.error().message;
  fs::rename(at("cache"), at("cache.moved"));
  fs::create_directory_symlink(at("secret"), at("cache"));
  EXPECT_FALSE(fenced_child_creates(*fd, at("cache/a")));
  EXPECT_FALSE(fs::exists(at("secret/a")));
  EXPECT_TRUE(fenced_child_creates(*fd, at("cache.moved/a")));
}

// An attacker flips the entry between its folder and a link to a secret
// folder while sessions start: each session is refused or fenced to the
// folder, never to the secret one.
TEST_F(CommandWritePaths, ASwapRacingTheStartNeverWidensTheFence) {
  fs::create_directory_symlink(at("secret"), at("cache.swap"));
  std::atomic<bool> stop{false};
  std::thread swapper([&] {
    std::string a = at("cache"), b = at("cache.swap");
    while (!stop.load()) ::renameat2(AT_FDCWD, a.c_str(), AT_FDCWD, b.c_str(), RENAME_EXCHANGE);
  });
  int built = 0, refused = 0, escapes = 0;
  for (int i = 0; i < 300; ++i) {
    auto made = fence(at("cache"));
    ASSERT_TRUE(made.has_value()) << made.error().message;
    auto fd = (*made)->write_fence_fd();
    if (!fd) {
      ++refused;
      continue;
    }
    ++built;
    if (fenced_child_creates(*fd, at("secret/escaped-" + std::to_string(i)))) ++escapes;
  }
  stop.store(true);
  swapper.join();
  EXPECT_EQ(escapes, 0) << "of " << built << " fences built (" << refused << " refused)";
  EXPECT_GT(built, 0);
  EXPECT_GT(refused, 0);
}

// The private directory is made in a temporary directory that commands of
// other sessions may write to (`/tmp` in their command_write_paths): an
// attacker there swaps each fresh hermes-fence-* folder for a link to a
// secret folder. The window (mkdtemp to the fence's open) is microseconds,
// so the attacker rarely wins it; when it does, the session must be refused,
// never fenced to the secret folder.
TEST_F(CommandWritePaths, APrivateDirectorySwappedForALinkIsNeverFenced) {
  std::atomic<bool> stop{false};
  std::thread swapper([&] {
    while (!stop.load()) {
      for (const auto& entry : fs::directory_iterator(real_)) {
        std::string name = entry.path().filename().string();
        if (!name.starts_with("hermes-fence-") || entry.is_symlink()) continue;
        std::error_code ec;
        fs::rename(entry.path(), at("taken-" + name), ec);
        if (!ec) fs::create_directory_symlink(at("secret"), entry.path(), ec);
      }
    }
  });
  int built = 0, escapes = 0;
  for (int i = 0; i < 300; ++i) {
    auto made = backend::CommandFence::create({.root = at("root"), .host_temp_dir = real_});
    if (!made) continue;  // mkdtemp raced too
    auto fd = (*made)->write_fence_fd();
    if (!fd) continue;
    ++built;
    if (fenced_child_creates(*fd, at("secret/escaped-" + std::to_string(i)))) ++escapes;
  }
  stop.store(true);
  swapper.join();
  EXPECT_EQ(escapes, 0) << "of " << built << " fences built";
  EXPECT_GT(built, 0);
}

}  // namespace
}  // namespace hermes::testing
