// SPDX-License-Identifier: MIT
// PathLocks: byte-range OFD locks in one per-user lock file.
#include "fs/path_lock.h"

#include "core/log.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>

namespace hermes::fs {
namespace {

// FNV-1a: stable across processes and builds, unlike std::hash.
off_t offset_of(const std::string& path) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : path) h = (h ^ c) * 1099511628211ull;
  return static_cast<off_t>(h & ((uint64_t{1} << 62) - 1));
}

// The lock file, refused unless it is a regular file of ours (another user
// could have planted a link or a file in /tmp).
proc::UniqueFd open_lock_file() {
  const std::string path = PathLocks::lock_file();
  proc::UniqueFd fd(::open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600));
  struct stat st;
  if (fd.valid() && ::fstat(fd.get(), &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == ::getuid()) {
    return fd;
  }
  log::warn("cannot use the lock file " + path + "; edits are serialised in this process only");
  return proc::UniqueFd();
}

void lock_byte(int fd, off_t at) {
  struct flock lock {};
  lock.l_type = F_WRLCK;
  lock.l_whence = SEEK_SET;
  lock.l_start = at;
  lock.l_len = 1;
  while (::fcntl(fd, F_OFD_SETLKW, &lock) != 0 && errno == EINTR) {
  }
}

}  // namespace

std::string PathLocks::lock_file() {
  const char* runtime = std::getenv("XDG_RUNTIME_DIR");
  struct stat st;
  if (runtime && *runtime == '/' && ::stat(runtime, &st) == 0 && S_ISDIR(st.st_mode) &&
      st.st_uid == ::getuid()) {
    return std::string(runtime) + "/hermes-tools.locks";
  }
  return "/tmp/hermes-tools-" + std::to_string(::getuid()) + ".locks";
}

PathLocks::PathLocks(std::vector<std::string> paths) : fd_(open_lock_file()) {
  if (!fd_.valid()) {
    static std::mutex everything;
    fallback_ = std::unique_lock(everything);
    return;
  }
  std::vector<off_t> offsets;
  for (const auto& path : paths) offsets.push_back(offset_of(path));
  std::sort(offsets.begin(), offsets.end());
  offsets.erase(std::unique(offsets.begin(), offsets.end()), offsets.end());
  for (off_t at : offsets) lock_byte(fd_.get(), at);
}

}  // namespace hermes::fs
