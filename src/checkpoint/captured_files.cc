// SPDX-License-Identifier: MIT
#include "checkpoint/captured_files.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

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

namespace {

uint64_t read_look(int fd) {
  uint64_t look = 0;
  if (::pread(fd, &look, sizeof look, 0) != static_cast<ssize_t>(sizeof look)) look = 0;
  return look;
}

// The look a capture's name starts with, and where its state begins.
bool parse_name(const char* name, uint64_t& look, const char*& state) {
  char* end = nullptr;
  errno = 0;
  look = std::strtoull(name, &end, 10);
  if (errno != 0 || end == name || *end != '-') return false;
  state = end + 1;
  return true;
}

}  // namespace

void CapturedFiles::note_look() const {
  // The caller holds the workspace's lock: the read and the write are one
  // step for every process sharing the store.
  proc::UniqueFd fd(::open(looks_.c_str(), O_RDWR | O_CLOEXEC));
  if (!fd.valid()) return;  // no command has run under a capture yet
  uint64_t look = read_look(fd.get()) + 1;
  [[maybe_unused]] ssize_t n = ::pwrite(fd.get(), &look, sizeof look, 0);
}

uint64_t CapturedFiles::look() const {
  proc::UniqueFd fd(::open(looks_.c_str(), O_RDONLY | O_CLOEXEC));
  return fd.valid() ? read_look(fd.get()) : 0;
}

void CapturedFiles::scan() {
  by_state_.clear();
  DIR* d = ::opendir(dir_.c_str());
  if (d == nullptr) return;
  while (dirent* e = ::readdir(d)) {
    uint64_t look = 0;
    const char* state = nullptr;
    if (parse_name(e->d_name, look, state)) by_state_[state] = e->d_name;
  }
  ::closedir(d);
}

proc::UniqueFd CapturedFiles::open(const Stamp& stamp) const {
  auto it = by_state_.find(proc::captured_state(stamp.ino, stamp.size, stamp.mtime_ns));
  if (stamp.ino == 0 || it == by_state_.end()) return proc::UniqueFd();
  std::string path = dir_ + "/" + it->second;
  return proc::UniqueFd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
}

void CapturedFiles::drop(const Stamp& stamp) {
  auto it = by_state_.find(proc::captured_state(stamp.ino, stamp.size, stamp.mtime_ns));
  if (it == by_state_.end()) return;
  ::unlink((dir_ + "/" + it->second).c_str());
  by_state_.erase(it);
}

void CapturedFiles::remove_before(uint64_t look) const {
  DIR* d = ::opendir(dir_.c_str());
  if (d == nullptr) return;
  while (dirent* e = ::readdir(d)) {
    uint64_t made = 0;
    const char* state = nullptr;
    bool named = parse_name(e->d_name, made, state);
    // A `.new` left by a killed supervisor is named too; only . and .. are not.
    if (e->d_name[0] != '.' && (!named || made < look)) ::unlinkat(::dirfd(d), e->d_name, 0);
  }
  ::closedir(d);
}

}  // namespace hermes::checkpoint
