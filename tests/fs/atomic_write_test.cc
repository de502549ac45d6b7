// SPDX-License-Identifier: MIT
// atomic_write: links, parents, modes, an injected write failure, and a child
// killed mid-write never leaving a torn file.
#include "fs/atomic_write.h"

#include "fs/contained_write.h"
#include "testutil/temp_dir.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <random>

namespace hermes::fs {
namespace {

using testing::TempDir;

size_t count_entries(const std::string& dir) {
  size_t n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++n;
  return n;
}

TEST(AtomicWrite, CreatesParentsAndReportsThem) {
  TempDir dir;
  auto out = atomic_write(dir.file("a/b/c.txt"), "x");
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_TRUE(out->created);
  EXPECT_EQ(out->created_dirs, (std::vector<std::string>{dir.file("a"), dir.file("a/b")}));
  EXPECT_EQ(dir.read("a/b/c.txt"), "x");
}

TEST(AtomicWrite, DanglingLinkCreatesItsTarget) {
  TempDir dir;
  ASSERT_EQ(::symlink("target.txt", dir.file("link").c_str()), 0);
  auto out = atomic_write(dir.file("link"), "via link");
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_EQ(out->written_path, dir.file("target.txt"));
  EXPECT_EQ(dir.read("target.txt"), "via link");
  struct stat st;
  ASSERT_EQ(::lstat(dir.file("link").c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
}

TEST(AtomicWrite, InjectedWriteFailureKeepsOldFileAndLeavesNoTemp) {
  TempDir dir;
  std::string path = dir.write("f.txt", "original");
  AtomicWriteOptions faulty;
  int calls = 0;
  faulty.write_fn = [&](int fd, const void* data, size_t size) -> ssize_t {
    if (++calls == 1) return ::write(fd, data, size / 2);  // a partial write first
    errno = ENOSPC;
    return -1;
  };
  auto out = atomic_write(path, std::string(100000, 'n'), faulty);
  ASSERT_FALSE(out);
  EXPECT_NE(out.error().message.find("No space left on device"), std::string::npos);
  EXPECT_EQ(dir.read("f.txt"), "original");
  EXPECT_EQ(count_entries(dir.path()), 1u);
}

TEST(AtomicWrite, UnwritableDirectoryFailsCleanly) {
  TempDir dir;
  std::string path = dir.write("f.txt", "original");
  auto out = atomic_write(path + "/child", "x");  // parent is a regular file
  ASSERT_FALSE(out);
  EXPECT_EQ(dir.read("f.txt"), "original");
  EXPECT_EQ(count_entries(dir.path()), 1u);
}

// A child rewrites the file in a loop with two large contents; it is killed
// at a random moment. The file must always hold one of the two, whole.
TEST(AtomicWrite, KilledWriterNeverLeavesATornFile) {
  TempDir dir;
  const std::string a(300000, 'a'), b(200000, 'b');
  std::string path = dir.write("f.txt", a);
  std::mt19937 rng(12345);
  for (int round = 0; round < 12; ++round) {
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      for (int i = 0;; ++i) (void)atomic_write(path, i % 2 ? a : b);
    }
    ::usleep(1000 + rng() % 20000);
    ::kill(pid, SIGKILL);
    int status;
    ::waitpid(pid, &status, 0);
    std::string now = dir.read("f.txt");
    ASSERT_TRUE(now == a || now == b) << "torn file of " << now.size() << " bytes";
  }
}

// A temp left by a writer that died is removed by the next write into its
// directory; one of a live writer (this process) is kept.
TEST(AtomicWrite, TempOfADeadWriterIsRemoved) {
  TempDir dir;
  pid_t dead = ::fork();
  ASSERT_GE(dead, 0);
  if (dead == 0) ::_exit(0);
  ASSERT_EQ(::waitpid(dead, nullptr, 0), dead);
  const std::string stale = ".hermes-tmp." + std::to_string(dead) + ".1.1";
  const std::string live = ".hermes-tmp." + std::to_string(::getpid()) + ".1.1";
  dir.write(stale, "left behind");
  dir.write(live, "in progress");
  ASSERT_TRUE(atomic_write(dir.path() + "/f.txt", "new"));
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/" + stale));
  EXPECT_TRUE(std::filesystem::exists(dir.path() + "/" + live));
}

// In a child with its own mount namespace: a 64 KB tmpfs (full disk) and
// then the same tmpfs remounted read-only. Skipped where mounts are not
// allowed (not root, no user namespaces).
int full_and_readonly_disk_child(const std::string& dir) {
  if (::mkdir(dir.c_str(), 0755) != 0 || ::unshare(CLONE_NEWNS) != 0) return 77;
  if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return 77;
  if (::mount("tmpfs", dir.c_str(), "tmpfs", 0, "size=64k") != 0) return 77;
  const std::string path = dir + "/f.txt";
  if (!atomic_write(path, "original")) return 10;
  if (atomic_write(path, std::string(256 * 1024, 'x'))) return 11;  // must fail: ENOSPC
  if (read_whole_file(path).value_or("") != "original" || count_entries(dir) != 1) return 12;
  if (::mount(nullptr, dir.c_str(), nullptr, MS_REMOUNT | MS_RDONLY, nullptr) != 0) return 77;
  auto ro = atomic_write(path, "new");
  if (ro || ro.error().message.find("Read-only file system") == std::string::npos) return 13;
  if (read_whole_file(path).value_or("") != "original" || count_entries(dir) != 1) return 14;
  return 0;
}

TEST(AtomicWrite, FullOrReadOnlyDiskKeepsOldFileAndLeavesNoTemp) {
  TempDir dir;
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) ::_exit(full_and_readonly_disk_child(dir.file("mnt")));
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  if (WEXITSTATUS(status) == 77) GTEST_SKIP() << "mount namespaces not available";
  EXPECT_EQ(WEXITSTATUS(status), 0) << "child check " << WEXITSTATUS(status) << " failed";
}

// The post-write check: equal only when every byte and the length agree,
// across the 64 KiB chunks it reads in.
TEST(AtomicWrite, FdHoldsComparesEveryByteAndTheLength) {
  TempDir dir;
  std::string big(200000, 'x');
  big[150000] = 'y';
  std::string path = dir.write("f.txt", big);
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  EXPECT_TRUE(*fd_holds(fd, path, big));
  std::string other = big;
  other[150000] = 'x';
  EXPECT_FALSE(*fd_holds(fd, path, other));
  EXPECT_FALSE(*fd_holds(fd, path, big.substr(0, big.size() - 1)));
  EXPECT_FALSE(*fd_holds(fd, path, big + "z"));
  EXPECT_FALSE(*fd_holds(fd, path, ""));
  ::close(fd);
  EXPECT_EQ(*read_whole_file(path), big);
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

}  // namespace
}  // namespace hermes::fs
