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
#include <thread>

namespace hermes::fs {
namespace {

// FNV-1a: stable across processes and builds, unlike std::hash.
off_t offset_of(const std::string& path) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : path) h = (h ^ c) * 1099511628211ull;
  return static_cast<off_t>(h & ((uint64_t{1} << 62) - 1));
}

// The lock file, refused (invalid) unless it is a regular file of ours
// (another user could have planted a link or a file in /tmp).
proc::UniqueFd open_lock_file() {
  const std::string path = PathLocks::lock_file();
  proc::UniqueFd fd(::open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600));
  struct stat st;
  if (fd.valid() && ::fstat(fd.get(), &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == ::getuid()) {
    return fd;
  }
  return proc::UniqueFd();
}

// One attempt: false while another description holds the byte.
bool try_lock_byte(int fd, off_t at) {
  struct flock lock {};
  lock.l_type = F_WRLCK;
  lock.l_whence = SEEK_SET;
  lock.l_start = at;
  lock.l_len = 1;
  while (::fcntl(fd, F_OFD_SETLK, &lock) != 0) {
    if (errno != EINTR) return errno != EAGAIN && errno != EACCES;  // other errors: unlocked use
  }
  return true;
}

// Calls `attempt` until it succeeds, backing off from 100 µs to 20 ms
// between tries; an error when `stop` or the deadline comes first. `path`
// names the file in the error.
template <class Attempt>
Status poll(Attempt attempt, const std::string& path, const std::stop_token& stop,
            std::chrono::milliseconds patience) {
  const auto deadline = std::chrono::steady_clock::now() + patience;
  std::chrono::microseconds pause{100};
  while (!attempt()) {
    if (stop.stop_requested())
      return Error::Cancelled("cancelled while waiting to write '" + path + "'");
    if (std::chrono::steady_clock::now() >= deadline) {
      return Error::Unavailable("'" + path + "' has been locked by another writer for " +
                                std::to_string(patience.count() / 1000) +
                                " s (a process of this user holds its lock in " +
                                PathLocks::lock_file() + "); nothing was written, try again");
    }
    std::this_thread::sleep_for(pause);
    pause = std::min<std::chrono::microseconds>(pause * 2, std::chrono::milliseconds(20));
  }
  return {};
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

std::optional<PathLocks> PathLocks::try_take(const std::string& path) {
  PathLocks held;
  held.fd_ = open_lock_file();
  // Without the file, every write shares one lock (take): any may wait.
  if (!held.fd_.valid() || !try_lock_byte(held.fd_.get(), offset_of(path))) return std::nullopt;
  return held;
}

Result<PathLocks> PathLocks::take(const std::vector<std::string>& paths, std::stop_token stop,
                                  std::chrono::milliseconds patience) {
  PathLocks held;
  held.fd_ = open_lock_file();
  if (!held.fd_.valid()) {
    log::warn("cannot use the lock file " + lock_file() +
              "; edits are serialised in this process only");
    static std::mutex everything;
    std::unique_lock lock(everything, std::defer_lock);
    HERMES_TRY(
        poll([&] { return lock.try_lock(); }, paths.empty() ? "" : paths.front(), stop, patience));
    held.fallback_ = std::move(lock);
    return held;
  }
  std::vector<std::pair<off_t, const std::string*>> offsets;
  for (const auto& path : paths) offsets.emplace_back(offset_of(path), &path);
  std::sort(offsets.begin(), offsets.end());
  for (size_t i = 0; i < offsets.size(); ++i) {
    const off_t at = offsets[i].first;
    if (i > 0 && offsets[i - 1].first == at) continue;
    HERMES_TRY(poll([&] { return try_lock_byte(held.fd_.get(), at); }, *offsets[i].second, stop,
                    patience));
  }
  return held;
}

}  // namespace hermes::fs
