// SPDX-License-Identifier: MIT
// The local FileSystem: open/pread/fstat/readdir and atomic_write directly,
// each reached through a Beneath walk, every fd RAII-owned and O_CLOEXEC.
#include "fs/native_file_system.h"

#include "core/link_walk.h"
#include "fs/beneath.h"
#include "fs/contained_write.h"
#include "proc/unique_fd.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string_view>

namespace hermes::fs {
namespace {

FileType type_of(mode_t mode) {
  if (S_ISREG(mode)) return FileType::kRegular;
  if (S_ISDIR(mode)) return FileType::kDirectory;
  if (S_ISFIFO(mode)) return FileType::kFifo;
  if (S_ISSOCK(mode)) return FileType::kSocket;
  if (S_ISCHR(mode)) return FileType::kCharDevice;
  if (S_ISBLK(mode)) return FileType::kBlockDevice;
  if (S_ISLNK(mode)) return FileType::kSymlink;
  return FileType::kOther;
}

FileInfo info_of(const struct stat& st) {
  FileInfo info;
  info.type = type_of(st.st_mode);
  info.size = static_cast<uint64_t>(st.st_size);
  info.dev = st.st_dev;
  info.ino = st.st_ino;
  info.mtime_ns = int64_t{st.st_mtim.tv_sec} * 1000000000 + st.st_mtim.tv_nsec;
  info.ctime_ns = int64_t{st.st_ctim.tv_sec} * 1000000000 + st.st_ctim.tv_nsec;
  info.mode = st.st_mode & 07777;
  return info;
}

class NativeFile final : public ReadableFile {
 public:
  explicit NativeFile(proc::UniqueFd fd) : fd_(std::move(fd)) {}

  Result<size_t> pread(char* buffer, size_t size, uint64_t offset) override {
    for (;;) {
      ssize_t n = ::pread(fd_.get(), buffer, size, static_cast<off_t>(offset));
      if (n >= 0) return static_cast<size_t>(n);
      if (errno != EINTR) return Error::FromErrno(errno, "read");
    }
  }

  Result<FileInfo> info() override {
    struct stat st;
    if (::fstat(fd_.get(), &st) != 0) return Error::FromErrno(errno, "fstat");
    return info_of(st);
  }

 private:
  proc::UniqueFd fd_;
};

// Every path is a real path walked beneath the workspace root (Beneath):
// no call here follows a symbolic link or leaves the root.
class NativeFileSystem final : public FileSystem {
 public:
  explicit NativeFileSystem(Result<Beneath> root) : root_(std::move(root)) {}

  // Metadata only: a link is followed by resolving it again (its target
  // still walked beneath the root); opens never do this.
  Result<FileInfo> stat(const std::string& path) const override {
    auto info = stat_at(path, "stat");
    if (info || info.error().code != ErrorCode::kPermissionDenied) return info;
    auto real = resolve_links(path);
    if (!real || *real == path) return info;
    return stat_at(*real, "stat");
  }

  Result<FileInfo> lstat(const std::string& path) const override {
    HERMES_ASSIGN_OR_RETURN(FileInfo info, stat_at(path, "lstat"));
    return info;
  }

  Result<std::unique_ptr<ReadableFile>> open_read(const std::string& path) const override {
    HERMES_ASSIGN_OR_RETURN(proc::UniqueFd fd,
                            open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK, "open"));
    return std::unique_ptr<ReadableFile>(std::make_unique<NativeFile>(std::move(fd)));
  }

  Result<std::vector<std::string>> list_dir(const std::string& path) const override {
    HERMES_ASSIGN_OR_RETURN(proc::UniqueFd fd, open(path, O_RDONLY | O_DIRECTORY, "opendir"));
    DIR* dir = ::fdopendir(fd.get());
    if (!dir) return Error::FromErrno(errno, "opendir \"" + path + "\"");
    fd.release();
    std::unique_ptr<DIR, int (*)(DIR*)> owner(dir, ::closedir);
    std::vector<std::string> names;
    while (struct dirent* entry = ::readdir(dir)) {
      std::string name = entry->d_name;
      if (name != "." && name != "..") names.push_back(std::move(name));
    }
    return names;
  }

  Result<std::string> read_link(const std::string& path) const override {
    HERMES_ASSIGN_OR_RETURN(Beneath::Parent parent, open_parent(path, "readlink"));
    std::string buffer(4096, '\0');
    ssize_t n = ::readlinkat(parent.dir, parent.name.c_str(), buffer.data(), buffer.size());
    if (n < 0) return Error::FromErrno(errno, "readlink \"" + path + "\"");
    buffer.resize(static_cast<size_t>(n));
    return buffer;
  }

  Result<std::string> read_all(const std::string& path) const override {
    HERMES_ASSIGN_OR_RETURN(proc::UniqueFd fd,
                            open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK, "open"));
    struct stat st;
    if (::fstat(fd.get(), &st) != 0) return Error::FromErrno(errno, "fstat \"" + path + "\"");
    HERMES_TRY(check_whole_file(info_of(st), path));
    return read_whole_fd(fd.get(), path, kMaxWholeFileBytes);
  }

  Result<AtomicWriteOutcome> write_atomic(const std::string& path, std::string_view bytes,
                                          const AtomicWriteOptions& options) const override {
    if (!root_) return root_.error();
    return atomic_write_beneath(*root_, path, bytes, options);
  }

  // Of a file this process just wrote: no size cap, so a large write is
  // still verified. Compared chunk by chunk: no copy of the file is made.
  Result<bool> holds(const std::string& path, std::string_view bytes) const override {
    HERMES_ASSIGN_OR_RETURN(proc::UniqueFd fd,
                            open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK, "open"));
    return fd_holds(fd.get(), path, bytes);
  }

  Status remove(const std::string& path) const override {
    HERMES_ASSIGN_OR_RETURN(Beneath::Parent parent, open_parent(path, "unlink"));
    if (::unlinkat(parent.dir, parent.name.c_str(), 0) != 0) {
      return Error::FromErrno(errno, "unlink \"" + path + "\"");
    }
    return {};
  }

  Status remove_dir(const std::string& path) const override {
    HERMES_ASSIGN_OR_RETURN(Beneath::Parent parent, open_parent(path, "rmdir"));
    if (::unlinkat(parent.dir, parent.name.c_str(), AT_REMOVEDIR) != 0) {
      return Error::FromErrno(errno, "rmdir \"" + path + "\"");
    }
    return {};
  }

  Status make_dir(const std::string& path, unsigned mode) const override {
    HERMES_ASSIGN_OR_RETURN(Beneath::Parent parent, open_parent(path, "mkdir"));
    if (::mkdirat(parent.dir, parent.name.c_str(), 0700) != 0) {
      return Error::FromErrno(errno, "mkdir \"" + path + "\"");
    }
    if (::fchmodat(parent.dir, parent.name.c_str(), mode & 07777, 0) != 0) {
      return Error::FromErrno(errno, "chmod \"" + path + "\"");
    }
    return {};
  }

  Status make_symlink(const std::string& target, const std::string& link) const override {
    HERMES_ASSIGN_OR_RETURN(Beneath::Parent parent, open_parent(link, "symlink"));
    if (::symlinkat(target.c_str(), parent.dir, parent.name.c_str()) != 0) {
      return Error::FromErrno(errno, "symlink \"" + link + "\"");
    }
    return {};
  }

  Status set_mode(const std::string& path, unsigned mode) const override {
    HERMES_ASSIGN_OR_RETURN(proc::UniqueFd fd, open(path, O_PATH, "chmod"));
    // fchmod refuses O_PATH fds; its /proc name is the opened file itself.
    const std::string self = "/proc/self/fd/" + std::to_string(fd.get());
    if (::chmod(self.c_str(), mode) != 0) return Error::FromErrno(errno, "chmod \"" + path + "\"");
    return {};
  }

  Result<std::string> real_path(const std::string& absolute_path) const override {
    return resolve_links(absolute_path);
  }

  std::string home() const override {
    const char* home = std::getenv("HOME");
    return home ? home : "";
  }

 private:
  // `op` names the system call in error messages: `<op> "<path>": …`.
  Result<proc::UniqueFd> open(const std::string& path, int flags, const char* op) const {
    if (!root_) return root_.error();
    return root_->open(path, flags, 0, std::string(op) + " \"" + path + "\"");
  }
  Result<Beneath::Parent> open_parent(const std::string& path, const char* op) const {
    if (!root_) return root_.error();
    return root_->open_parent(path, nullptr, std::string(op) + " \"" + path + "\"");
  }
  // The entry itself (never followed); a link reads as kPermissionDenied
  // for `stat`.
  Result<FileInfo> stat_at(const std::string& path, const char* op) const {
    HERMES_ASSIGN_OR_RETURN(Beneath::Parent parent, open_parent(path, op));
    struct stat st;
    if (::fstatat(parent.dir, parent.name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      return Error::FromErrno(errno, std::string(op) + " \"" + path + "\"");
    }
    if (S_ISLNK(st.st_mode) && std::string_view(op) == "stat") {
      return walk_error(ELOOP, "stat \"" + path + "\"", path);
    }
    return info_of(st);
  }

  Result<Beneath> root_;
};

}  // namespace

const FileSystem& native_file_system() {
  static const FileSystem& whole_host = native_file_system("/");  // no lock a call
  return whole_host;
}

const FileSystem& native_file_system(const std::string& root) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<NativeFileSystem>> by_root;  // never shrinks
  // Each thread keeps its last answer: every file call asks, nearly always
  // for the one root, and the lock would be shared by every thread.
  thread_local std::string last_root;
  thread_local const FileSystem* last = nullptr;
  const std::string key = root.empty() ? "/" : root;
  if (last && last_root == key) return *last;
  std::lock_guard lock(mu);
  auto& fs = by_root[key];
  if (!fs) fs = std::make_unique<NativeFileSystem>(Beneath::open_root(key));
  last_root = key;
  last = fs.get();
  return *fs;
}

}  // namespace hermes::fs
