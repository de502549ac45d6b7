// SPDX-License-Identifier: MIT
#include "checkpoint/captured_files.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "checkpoint/store_files.h"

namespace hermes::checkpoint {

CapturedFiles::CapturedFiles(const std::string& dir)
    : dir_(dir + "/captured"), looks_(dir + "/looks") {}

Result<std::shared_ptr<const proc::WriteCapture>> CapturedFiles::capture_for(
    const std::string& root, const Settings& settings) const {
  HERMES_TRY(make_private_dirs(dir_));
  auto capture = std::make_shared<proc::WriteCapture>();
  capture->dir.reset(::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!capture->dir.valid()) return Error::FromErrno(errno, "open \"" + dir_ + "\"");
  capture->looks.reset(::open(looks_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600));
  if (!capture->looks.valid()) return Error::FromErrno(errno, "open \"" + looks_ + "\"");
  struct ::stat st {};
  if (::stat(root.c_str(), &st) != 0) return Error::FromErrno(errno, "stat \"" + root + "\"");
  capture->root = root;
  capture->root_dev = st.st_dev;
  capture->root_ino = st.st_ino;
  capture->max_bytes = settings.max_file_bytes;
  capture->ignored.assign(settings.ignored.begin(), settings.ignored.end());
  capture->ignored.push_back(".git");
  return std::shared_ptr<const proc::WriteCapture>(std::move(capture));
}

void CapturedFiles::note_look() const {
  // The caller holds the workspace's lock: the read and the write are one
  // step for every process sharing the store.
  proc::UniqueFd fd(::open(looks_.c_str(), O_RDWR | O_CLOEXEC));
  if (!fd.valid()) return;  // no command has run under a capture yet
  uint64_t look = 0;
  if (::pread(fd.get(), &look, sizeof look, 0) != static_cast<ssize_t>(sizeof look)) look = 0;
  ++look;
  [[maybe_unused]] ssize_t n = ::pwrite(fd.get(), &look, sizeof look, 0);
}

std::string CapturedFiles::path_of(const Stamp& stamp) const {
  return dir_ + "/" + proc::captured_name(stamp.ino, stamp.size, stamp.mtime_ns);
}

proc::UniqueFd CapturedFiles::open(const Stamp& stamp) const {
  if (stamp.ino == 0) return proc::UniqueFd();
  return proc::UniqueFd(::open(path_of(stamp).c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
}

void CapturedFiles::drop(const Stamp& stamp) const { ::unlink(path_of(stamp).c_str()); }

void CapturedFiles::clear() const {
  DIR* d = ::opendir(dir_.c_str());
  if (d == nullptr) return;
  while (dirent* e = ::readdir(d)) {
    if (e->d_name[0] != '.') ::unlinkat(::dirfd(d), e->d_name, 0);
  }
  ::closedir(d);
}

}  // namespace hermes::checkpoint
