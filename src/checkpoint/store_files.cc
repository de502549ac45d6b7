// SPDX-License-Identifier: MIT
#include "checkpoint/store_files.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>

namespace hermes::checkpoint {

Status make_private_dirs(const std::string& dir) {
  for (size_t slash = dir.find('/', 1);; slash = dir.find('/', slash + 1)) {
    std::string part = dir.substr(0, slash);
    if (::mkdir(part.c_str(), 0700) != 0 && errno != EEXIST) {
      return Error::FromErrno(errno, "mkdir \"" + part + "\"");
    }
    if (slash == std::string::npos) return {};
  }
}

Status write_all(int fd, std::string_view bytes, const std::string& path) {
  for (size_t done = 0; done < bytes.size();) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Error::FromErrno(errno, "write \"" + path + "\"");
    done += static_cast<size_t>(n);
  }
  return {};
}

Status replace_file(const std::string& path, std::string_view bytes) {
  static std::atomic<uint64_t> counter{0};
  std::string temp = path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(++counter);
  proc::UniqueFd fd(::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600));
  if (!fd.valid() && errno == ENOENT) {
    HERMES_TRY(make_private_dirs(path.substr(0, path.rfind('/'))));
    fd = proc::UniqueFd(::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600));
  }
  if (!fd.valid()) return Error::FromErrno(errno, "create \"" + temp + "\"");
  Status written = write_all(fd.get(), bytes, temp);
  if (written && ::rename(temp.c_str(), path.c_str()) != 0) {
    written = Error::FromErrno(errno, "rename \"" + temp + "\"");
  }
  if (!written) ::unlink(temp.c_str());
  return written;
}

Result<proc::UniqueFd> open_unnamed(const std::string& dir, int access) {
  proc::UniqueFd fd(::open(dir.c_str(), O_TMPFILE | access | O_CLOEXEC, 0600));
  if (!fd.valid() && errno == ENOENT) {
    HERMES_TRY(make_private_dirs(dir));
    fd = proc::UniqueFd(::open(dir.c_str(), O_TMPFILE | access | O_CLOEXEC, 0600));
  }
  if (!fd.valid()) return Error::FromErrno(errno, "open an unnamed file in \"" + dir + "\"");
  return fd;
}

Status link_unnamed(int fd, const std::string& path) {
  std::string self = "/proc/self/fd/" + std::to_string(fd);
  auto link = [&] {
    return ::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, path.c_str(), AT_SYMLINK_FOLLOW) == 0 ||
           errno == EEXIST;
  };
  if (link()) return {};
  if (errno == ENOENT) {
    HERMES_TRY(make_private_dirs(path.substr(0, path.rfind('/'))));
    if (link()) return {};
  }
  return Error::FromErrno(errno, "link \"" + path + "\"");
}

Status create_file(const std::string& path, std::string_view bytes) {
  auto fd = open_unnamed(path.substr(0, path.rfind('/')), O_WRONLY);
  if (!fd) return replace_file(path, bytes);  // no O_TMPFILE here
  HERMES_TRY(write_all(fd->get(), bytes, path));
  return link_unnamed(fd->get(), path);
}

Status append_file(const std::string& path, std::string_view bytes) {
  proc::UniqueFd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600));
  if (!fd.valid()) return Error::FromErrno(errno, "open \"" + path + "\"");
  return write_all(fd.get(), bytes, path);
}

Result<FileLock> FileLock::acquire(const std::string& path, bool shared) {
  proc::UniqueFd fd(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600));
  if (!fd.valid() && errno == ENOENT) {
    HERMES_TRY(make_private_dirs(path.substr(0, path.rfind('/'))));
    fd = proc::UniqueFd(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600));
  }
  if (!fd.valid()) return Error::FromErrno(errno, "open \"" + path + "\"");
  while (::flock(fd.get(), shared ? LOCK_SH : LOCK_EX) != 0) {
    if (errno != EINTR) return Error::FromErrno(errno, "lock \"" + path + "\"");
  }
  return FileLock(std::move(fd));
}

}  // namespace hermes::checkpoint
