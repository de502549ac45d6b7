// SPDX-License-Identifier: MIT
#include "fs/disk_usage.h"

#include "proc/unique_fd.h"

#include <fcntl.h>
#include <sys/statvfs.h>
#include <unistd.h>

namespace hermes::fs {

int64_t used_bytes(const std::string& path) {
  proc::UniqueFd dir(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dir.valid()) ::syncfs(dir.get());
  struct statvfs vfs {};
  if (::statvfs(path.c_str(), &vfs) != 0) return -1;
  return static_cast<int64_t>((vfs.f_blocks - vfs.f_bfree) * vfs.f_frsize);
}

}  // namespace hermes::fs
