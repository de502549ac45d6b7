// SPDX-License-Identifier: MIT
// Beneath and resolve_links, in both walks: links refused on the way,
// escapes refused, parents made one O_NOFOLLOW step at a time, dangling
// links resolved to their targets, magic links kept unresolved; and the
// named-temp fallback of atomic_write cleaning a killed writer's leftovers.
#include "fs/beneath.h"

#include "core/link_walk.h"
#include "fs/contained_write.h"
#include "fs/native_file_system.h"
#include "testutil/temp_dir.h"

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

namespace hermes::testing {
namespace {

namespace fs = std::filesystem;

class BeneathTest : public ::testing::TestWithParam<hermes::fs::WalkMode> {
 protected:
  void SetUp() override {
    hermes::fs::set_walk_mode(GetParam());
    fs::create_directories(root.file("a/b"));
    root.write("a/b/f.txt", "inside");
    outside.write("secret.txt", "CANARY");
    fs::create_directory_symlink(outside.path(), root.file("a/out"));
    fs::create_symlink(root.file("a/b/f.txt"), root.file("a/lf"));
  }
  void TearDown() override { hermes::fs::set_walk_mode(hermes::fs::WalkMode::kAuto); }

  TempDir root, outside;
};

TEST_P(BeneathTest, OpensRealPathsAndRefusesEveryLinkOnTheWay) {
  const hermes::fs::FileSystem& fs = hermes::fs::native_file_system(root.path());
  EXPECT_EQ(fs.read_all(root.file("a/b/f.txt")).value_or(""), "inside");
  auto through_dir_link = fs.read_all(root.file("a/out/secret.txt"));
  ASSERT_FALSE(through_dir_link);
  EXPECT_NE(through_dir_link.error().message.find("refusing to follow a symbolic link"),
            std::string::npos)
      << through_dir_link.error().message;
  EXPECT_FALSE(fs.read_all(root.file("a/lf")));  // a final link too
  // stat alone follows a link, re-resolved and walked beneath the root again.
  EXPECT_EQ(fs.stat(root.file("a/lf"))->type, hermes::fs::FileType::kRegular);
  EXPECT_EQ(fs.stat(root.file("a/out/secret.txt")).error().code, ErrorCode::kOutsideRoot);
  EXPECT_EQ(fs.lstat(root.file("a/lf"))->type, hermes::fs::FileType::kSymlink);
}

TEST_P(BeneathTest, PathsOutsideTheRootAreRefusedBeforeAnyWalk) {
  const hermes::fs::FileSystem& fs = hermes::fs::native_file_system(root.path());
  auto out = fs.read_all(outside.file("secret.txt"));
  ASSERT_FALSE(out);
  EXPECT_EQ(out.error().code, ErrorCode::kOutsideRoot);
  EXPECT_FALSE(fs.write_atomic(outside.file("new.txt"), "x", {}));
  EXPECT_FALSE(fs::exists(outside.file("new.txt")));
  EXPECT_EQ(fs.read_all(root.file("a/../../x")).error().code, ErrorCode::kInvalidArgument);
}

TEST_P(BeneathTest, WritesMakeParentsAndNeverFollowALinkedParent) {
  const hermes::fs::FileSystem& fs = hermes::fs::native_file_system(root.path());
  auto made = fs.write_atomic(root.file("n/m/new.txt"), "new", {});
  ASSERT_TRUE(made) << made.error().message;
  EXPECT_EQ(made->created_dirs, (std::vector<std::string>{root.file("n"), root.file("n/m")}));
  EXPECT_EQ(root.read("n/m/new.txt"), "new");
  EXPECT_FALSE(fs.write_atomic(root.file("a/out/made/x.txt"), "x", {}));
  EXPECT_FALSE(fs::exists(outside.file("made")));
  EXPECT_FALSE(fs.remove(root.file("a/out/secret.txt")));
  EXPECT_EQ(outside.read("secret.txt"), "CANARY");
}

TEST_P(BeneathTest, ResolveLinksFollowsDanglingLinksAndKeepsMagicLinks) {
  fs::create_symlink(outside.file("missing/x.txt"), root.file("dangling"));
  EXPECT_EQ(resolve_links(root.file("dangling")).value(), outside.file("missing/x.txt"));
  fs::create_symlink("b/../lf", root.file("a/chain"));
  EXPECT_EQ(resolve_links(root.file("a/chain")).value(), root.file("a/b/f.txt"));
  const std::string self = "/proc/" + std::to_string(::getpid());
  EXPECT_EQ(resolve_links("/proc/self/root/etc").value(), self + "/root/etc");
  fs::create_symlink(root.file("loop"), root.file("loop"));
  EXPECT_FALSE(resolve_links(root.file("loop")));
  // And a write to the kept magic link is refused at use.
  auto via_magic = hermes::fs::native_file_system("/").write_atomic(
      self + "/root" + outside.file("m.txt"), "x", {});
  EXPECT_FALSE(via_magic);
  EXPECT_FALSE(fs::exists(outside.file("m.txt")));
}

INSTANTIATE_TEST_SUITE_P(Walks, BeneathTest,
                         ::testing::Values(hermes::fs::WalkMode::kAuto,
                                           hermes::fs::WalkMode::kComponents),
                         [](const auto& walk) {
                           return walk.param == hermes::fs::WalkMode::kAuto ? "openat2"
                                                                            : "components";
                         });

int count_temps(const std::string& dir) {
  int n = 0;
  for (const auto& entry : fs::directory_iterator(dir))
    n += entry.path().filename().string().starts_with(".hermes-tmp.");
  return n;
}

TEST(NamedTempFallback, AKilledWritersTempIsCleanedByTheNextWrite) {
  TempDir dir;
  const std::string path = dir.file("f.txt");
  const std::string big(4 << 20, 'z');
  int seen = 0;
  for (int round = 0; round < 20 && seen == 0; ++round) {
    pid_t pid = ::fork();
    if (pid == 0) {
      for (;;)
        (void)hermes::fs::atomic_write_beneath(hermes::fs::filesystem_root(), path, big, {},
                                               hermes::fs::TempKind::kNamed);
    }
    ::usleep(30000);
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    seen = count_temps(dir.path());
  }
  ASSERT_GT(seen, 0) << "no kill landed mid-write in 20 rounds";
  ASSERT_TRUE(hermes::fs::atomic_write_beneath(hermes::fs::filesystem_root(), path, "after", {},
                                               hermes::fs::TempKind::kNamed));
  EXPECT_EQ(count_temps(dir.path()), 0);
  EXPECT_EQ(dir.read("f.txt"), "after");
}

}  // namespace
}  // namespace hermes::testing
