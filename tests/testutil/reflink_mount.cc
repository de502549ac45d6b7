// SPDX-License-Identifier: MIT
#include "testutil/reflink_mount.h"

#include "fs/disk_usage.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>

namespace hermes::testing {

namespace {

bool run(const std::string& command) {
  return std::system((command + " >/dev/null 2>&1").c_str()) == 0;
}

}  // namespace

ReflinkMount::ReflinkMount() {
  if (::geteuid() != 0) {
    why_ = "mounting a file system with reflinks needs root";
    return;
  }
  if (!run("command -v mkfs.xfs")) {
    why_ = "mkfs.xfs is not installed (xfsprogs)";
    return;
  }
  // 300 MB is mkfs.xfs's smallest; the image is sparse, so it costs what is
  // written into it.
  std::string image = holder_.file("xfs.img");
  std::string mount_point = holder_.file("mnt");
  ::mkdir(mount_point.c_str(), 0755);
  if (!run("truncate -s 320M '" + image + "'") ||
      !run("mkfs.xfs -q -m reflink=1 '" + image + "'")) {
    why_ = "mkfs.xfs could not make an XFS image";
    return;
  }
  if (!run("mount -o loop '" + image + "' '" + mount_point + "'")) {
    why_ = "a loop mount is refused here (no loop devices, or no CAP_SYS_ADMIN)";
    return;
  }
  path_ = mount_point;
}

ReflinkMount::~ReflinkMount() {
  // The loop device goes with the mount. A process of the test still in it
  // (a shell's cwd) would refuse a plain unmount: then it is detached now
  // and freed when that process ends.
  if (!path_.empty() && !run("umount '" + path_ + "'")) run("umount -l '" + path_ + "'");
}

int64_t ReflinkMount::used_bytes() const { return fs::used_bytes(path_); }

}  // namespace hermes::testing
