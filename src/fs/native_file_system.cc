// SPDX-License-Identifier: MIT
// The local FileSystem: open/pread/fstat/readdir and atomic_write directly,
// every fd RAII-owned and O_CLOEXEC.
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

#include "core/paths.h"
#include "fs/file_system.h"
#include "proc/unique_fd.h"

namespace hermes {
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

class NativeFileSystem final : public FileSystem {
 public:
  Result<FileInfo> stat(const std::string& path) const override {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) return Error::FromErrno(errno, "stat \"" + path + "\"");
    return info_of(st);
  }

  Result<FileInfo> lstat(const std::string& path) const override {
    struct stat st;
    if (::lstat(path.c_str(), &st) != 0) return Error::FromErrno(errno, "lstat \"" + path + "\"");
    return info_of(st);
  }

  Result<std::unique_ptr<ReadableFile>> open_read(const std::string& path) const override {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) return Error::FromErrno(errno, "open \"" + path + "\"");
    return std::unique_ptr<ReadableFile>(std::make_unique<NativeFile>(proc::UniqueFd(fd)));
  }

  Result<std::vector<std::string>> list_dir(const std::string& path) const override {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_DIRECTORY);
    if (fd < 0) return Error::FromErrno(errno, "opendir \"" + path + "\"");
    DIR* dir = ::fdopendir(fd);
    if (!dir) {
      int err = errno;
      ::close(fd);
      return Error::FromErrno(err, "opendir \"" + path + "\"");
    }
    std::unique_ptr<DIR, int (*)(DIR*)> owner(dir, ::closedir);
    std::vector<std::string> names;
    while (struct dirent* entry = ::readdir(dir)) {
      std::string name = entry->d_name;
      if (name != "." && name != "..") names.push_back(std::move(name));
    }
    return names;
  }

  Result<std::string> read_link(const std::string& path) const override {
    std::string buffer(4096, '\0');
    ssize_t n = ::readlink(path.c_str(), buffer.data(), buffer.size());
    if (n < 0) return Error::FromErrno(errno, "readlink \"" + path + "\"");
    buffer.resize(static_cast<size_t>(n));
    return buffer;
  }

  Result<std::string> read_all(const std::string& path) const override {
    return read_whole_file(path);
  }

  Result<AtomicWriteOutcome> write_atomic(const std::string& path, std::string_view bytes,
                                          const AtomicWriteOptions& options) const override {
    return atomic_write(path, bytes, options);
  }

  Result<std::string> sha256(const std::string& path) const override {
    HERMES_ASSIGN_OR_RETURN(std::string bytes, read_whole_file(path));
    return sha256_hex(bytes);
  }

  Status remove(const std::string& path) const override {
    if (::unlink(path.c_str()) != 0) return Error::FromErrno(errno, "unlink \"" + path + "\"");
    return {};
  }

  Status remove_dir(const std::string& path) const override {
    if (::rmdir(path.c_str()) != 0) return Error::FromErrno(errno, "rmdir \"" + path + "\"");
    return {};
  }

  Status set_mode(const std::string& path, unsigned mode) const override {
    if (::chmod(path.c_str(), mode) != 0) return Error::FromErrno(errno, "chmod \"" + path + "\"");
    return {};
  }

  Result<std::string> real_path(const std::string& absolute_path) const override {
    return PathResolver::real_path(absolute_path);
  }

  std::string home() const override {
    const char* home = std::getenv("HOME");
    return home ? home : "";
  }
};

}  // namespace

const FileSystem& native_file_system() {
  static const NativeFileSystem fs;
  return fs;
}

}  // namespace hermes
