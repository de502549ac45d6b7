// SPDX-License-Identifier: MIT
// The mounts a brief call keeps off: mountinfo parsing, which file systems
// may wait on a server, what a mount covers, the live view following a real
// mount whose server never answers, and a link walk that stops before it.
#include "fs/mount_table.h"

#include "core/link_walk.h"
#include "proc/unique_fd.h"
#include "testutil/temp_dir.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

namespace hermes::fs {
namespace {

TEST(Mountinfo, PointsAndTypesWithEscapesAndOptionalFields) {
  const std::string text =
      "22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
      "40 22 0:35 / /home/ann rw master:3 shared:7 - nfs4 srv:/home/ann rw,vers=4.2\n"
      "41 22 0:36 / /mnt/my\\040share rw - cifs //srv/s rw\n"
      "42 22 0:37 / /media/a\\134b\\011c rw - fuse.sshfs ann@h: rw\n"
      "not a mount line\n"
      "43 22 0:38 / /no/dash rw ext4 /dev/sdb rw\n"
      "44 22 0:39 / relative rw - tmpfs none rw";
  const std::vector<Mount> mounts = parse_mountinfo(text);
  ASSERT_EQ(mounts.size(), 4u);
  EXPECT_EQ(mounts[0].point, "/");
  EXPECT_EQ(mounts[0].type, "ext4");
  EXPECT_EQ(mounts[1].point, "/home/ann");
  EXPECT_EQ(mounts[1].type, "nfs4");
  EXPECT_EQ(mounts[2].point, "/mnt/my share");
  EXPECT_EQ(mounts[2].type, "cifs");
  EXPECT_EQ(mounts[3].point, "/media/a\\b\tc");
  EXPECT_EQ(mounts[3].type, "fuse.sshfs");
}

TEST(Mountinfo, HostileTextParsesToWhatIsWellFormed) {
  EXPECT_TRUE(parse_mountinfo("").empty());
  EXPECT_TRUE(parse_mountinfo(std::string(100000, ' ')).empty());
  EXPECT_TRUE(parse_mountinfo("1 2 3 4 /p 6 -").empty());  // no type after the dash
  const std::vector<Mount> cut = parse_mountinfo("1 2 3 / /x\\04 o - nfs s o\n");
  ASSERT_EQ(cut.size(), 1u);
  EXPECT_EQ(cut[0].point, "/x\\04");  // a cut escape stays text
}

TEST(Mountinfo, TypesThatMayWaitOnAServer) {
  for (const char* type : {"nfs", "nfs4", "cifs", "smb3", "9p", "ceph", "fuse", "fuseblk",
                           "fuse.sshfs", "fuse.dead", "virtiofs", "lustre"}) {
    EXPECT_TRUE(may_wait_on_server(type)) << type;
  }
  for (const char* type : {"ext4", "xfs", "btrfs", "tmpfs", "overlay", "proc", "sysfs", "nfsd",
                           "fusectl", "devtmpfs", ""}) {
    EXPECT_FALSE(may_wait_on_server(type)) << type;
  }
}

TEST(Mountinfo, AMountCoversItsPointAndWhatIsBeneath) {
  WaitingMounts mounts({{"/", "ext4"}, {"/mnt/nfs", "nfs"}, {"/srv/x/", "fuse"}});
  EXPECT_TRUE(mounts.covers("/mnt/nfs"));
  EXPECT_TRUE(mounts.covers("/mnt/nfs/a/b"));
  EXPECT_TRUE(mounts.covers("/srv/x/y"));
  EXPECT_FALSE(mounts.covers("/mnt/nfsx"));
  EXPECT_FALSE(mounts.covers("/mnt"));
  EXPECT_FALSE(mounts.covers("/home/a"));
  WaitingMounts root_on_nfs(std::vector<Mount>{{"/", "nfs"}});
  EXPECT_TRUE(root_on_nfs.covers("/anything"));
  EXPECT_TRUE(WaitingMounts(std::vector<Mount>{{"/", "ext4"}}).empty());
}

// A stay_off that names `dir` and what lies beneath it.
StayOff beneath(const std::string& dir) {
  return [dir](std::string_view path) {
    return path == dir || (path.starts_with(dir) && path[dir.size()] == '/');
  };
}

TEST(StayOffWalk, RefusesAPathBeneathAndALinkLeadingThere) {
  testing::TempDir dir;
  ::mkdir(dir.file("remote").c_str(), 0755);
  ::mkdir(dir.file("local").c_str(), 0755);
  ASSERT_EQ(::symlink(dir.file("remote/deep").c_str(), dir.file("local/link").c_str()), 0);
  const StayOff off = beneath(dir.file("remote"));
  auto direct = resolve_links(dir.file("remote/a.txt"), off);
  ASSERT_FALSE(direct.has_value());
  EXPECT_EQ(direct.error().code, ErrorCode::kUnavailable);
  auto through_link = resolve_links(dir.file("local/link/x"), off);
  ASSERT_FALSE(through_link.has_value());
  EXPECT_EQ(through_link.error().code, ErrorCode::kUnavailable);
  EXPECT_NE(through_link.error().message.find(dir.file("remote")), std::string::npos)
      << through_link.error().message;
  // Past a missing component the walk only spells text, but `..` can climb
  // back out of it: what it spells is asked too.
  ASSERT_EQ(::symlink("nope/../../remote/f", dir.file("local/climb").c_str()), 0);
  auto climbing = resolve_links(dir.file("local/climb"), off);
  ASSERT_FALSE(climbing.has_value()) << *climbing;
  EXPECT_EQ(climbing.error().code, ErrorCode::kUnavailable);
  // Elsewhere it resolves as resolve_links does.
  ::close(::open(dir.file("local/b.txt").c_str(), O_CREAT | O_WRONLY, 0644));
  EXPECT_EQ(*resolve_links(dir.file("local/b.txt"), off), dir.file("local/b.txt"));
  EXPECT_EQ(*resolve_links(dir.file("local/../local/b.txt"), off), dir.file("local/b.txt"));
}

// Polls `done` for up to two seconds.
template <class Done>
bool within_two_seconds(Done done) {
  for (int i = 0; i < 400; ++i) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return done();
}

// In a child of its own mount namespace (root and /dev/fuse needed): a FUSE
// mount whose daemon never answers appears in the live view once mounted,
// and leaves it once unmounted; the view is taken before the mount, so it
// must follow the change (so no test of this process may ask it first).
// Exit codes: 0 passed, 77 skipped, else the step that failed.
int follow_a_dead_fuse_mount(const std::string& point) {
  ::alarm(20);  // a lookup that reached the mount would wait for ever
  if (::unshare(CLONE_NEWNS) != 0) return 77;
  if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return 77;
  proc::UniqueFd fuse(::open("/dev/fuse", O_RDWR | O_CLOEXEC));
  if (!fuse.valid()) return 77;
  const std::string file = point + "/file.txt";
  if (may_wait_on_server_at(file)) return 1;
  const std::string options =
      "fd=" + std::to_string(fuse.get()) + ",rootmode=40000,user_id=0,group_id=0";
  if (::mount("dead", point.c_str(), "fuse.dead", MS_NOSUID | MS_NODEV, options.c_str()) != 0)
    return 77;
  if (!within_two_seconds([&] { return may_wait_on_server_at(file); })) return 2;
  // The walk stops before the mount: nothing here would ever answer it.
  if (resolve_links(file, may_wait_on_server_at).has_value()) return 3;
  if (::umount2(point.c_str(), MNT_DETACH) != 0) return 4;
  if (!within_two_seconds([&] { return !may_wait_on_server_at(file); })) return 5;
  return 0;
}

TEST(LiveMounts, FollowADeadFuseMountInAndOut) {
  testing::TempDir dir;
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) ::_exit(follow_a_dead_fuse_mount(dir.path()));
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "the child hung on the mount (killed by its alarm)";
  if (WEXITSTATUS(status) == 77) GTEST_SKIP() << "needs root, a mount namespace and /dev/fuse";
  EXPECT_EQ(WEXITSTATUS(status), 0) << "the step that failed";
}

}  // namespace
}  // namespace hermes::fs
