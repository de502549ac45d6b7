// SPDX-License-Identifier: MIT
// atomic_write and its helpers: link following, parent creation, the RAII
// temp file, and SHA-256 read-back verification.
#include "fs/atomic_write.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

namespace hermes {
namespace {

std::string dir_of(const std::string& path) {
  auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// Follows symlinks hop by hop (a dangling final link yields its target).
Result<std::string> final_target(std::string path) {
  for (int hops = 0; hops < 40; ++hops) {
    char buf[PATH_MAX];
    ssize_t n = ::readlink(path.c_str(), buf, sizeof buf - 1);
    if (n < 0) return path;  // not a link (or missing): write here
    std::string target(buf, static_cast<size_t>(n));
    path = target.starts_with('/') ? target : dir_of(path) + "/" + target;
  }
  return Error::Io("too many levels of symbolic links: " + path);
}

// mkdir -p; records each directory it made.
Status make_parents(const std::string& dir, std::vector<std::string>& created) {
  struct stat st;
  if (::stat(dir.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return {};
    return Error::Io("not a directory: " + dir);
  }
  if (dir != "/" && dir != ".") HERMES_TRY(make_parents(dir_of(dir), created));
  if (::mkdir(dir.c_str(), 0777) != 0 && errno != EEXIST) {
    return Error::FromErrno(errno, "mkdir \"" + dir + "\"");
  }
  created.push_back(dir);
  return {};
}

mode_t process_umask() {
  static const mode_t mask = [] {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
      if (line.rfind("Umask:", 0) == 0) return static_cast<mode_t>(std::stoul(line.substr(6), nullptr, 8));
    }
    return static_cast<mode_t>(022);
  }();
  return mask;
}

// The temp file: closed and unlinked on scope exit unless committed.
class TempFile {
 public:
  explicit TempFile(const std::string& dir) : path_(dir + "/.hermes-tmp.XXXXXX") {
    fd_ = ::mkostemp(path_.data(), O_CLOEXEC);
    made_ = fd_ >= 0;
  }
  ~TempFile() {
    if (fd_ >= 0) ::close(fd_);
    if (made_ && !committed_) ::unlink(path_.c_str());
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  bool ok() const { return fd_ >= 0; }
  int fd() const { return fd_; }
  const std::string& path() const { return path_; }
  Status close_fd() {
    int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) return Error::FromErrno(errno, "close \"" + path_ + "\"");
    return {};
  }
  void commit() { committed_ = true; }

 private:
  std::string path_;
  int fd_ = -1;
  bool made_ = false;
  bool committed_ = false;
};

Status write_all(int fd, std::string_view bytes, const WriteSyscall& write_fn) {
  while (!bytes.empty()) {
    ssize_t n = write_fn ? write_fn(fd, bytes.data(), bytes.size())
                         : ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Error::FromErrno(n < 0 ? errno : EIO, "write");
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return {};
}

// Existing file: its mode and owner; new file: 0666 & ~umask.
void apply_mode(int fd, const std::string& target, bool& existed) {
  struct stat st;
  existed = ::stat(target.c_str(), &st) == 0;
  if (existed) {
    ::fchmod(fd, st.st_mode & 07777);
    if (::fchown(fd, st.st_uid, st.st_gid) != 0) {
      // Best effort, as upstream's chmod/chown copy: an unprivileged writer
      // cannot give the file away and keeps ownership itself.
    }
  } else {
    ::fchmod(fd, 0666 & ~process_umask());
  }
}

void fsync_dir(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

}  // namespace

Result<AtomicWriteOutcome> atomic_write(const std::string& path, std::string_view bytes,
                                        const AtomicWriteOptions& options) {
  AtomicWriteOutcome out;
  HERMES_ASSIGN_OR_RETURN(out.written_path, final_target(path));
  const std::string dir = dir_of(out.written_path);
  HERMES_TRY(make_parents(dir, out.created_dirs));
  TempFile temp(dir);
  if (!temp.ok()) return Error::FromErrno(errno, "create temp file in \"" + dir + "\"");
  bool existed = false;
  apply_mode(temp.fd(), out.written_path, existed);
  out.created = !existed;
  HERMES_TRY(write_all(temp.fd(), bytes, options.write_fn));
  if (::fsync(temp.fd()) != 0) return Error::FromErrno(errno, "fsync \"" + temp.path() + "\"");
  HERMES_TRY(temp.close_fd());
  if (::rename(temp.path().c_str(), out.written_path.c_str()) != 0) {
    return Error::FromErrno(errno, "rename to \"" + out.written_path + "\"");
  }
  temp.commit();
  fsync_dir(dir);
  return out;
}

std::string sha256_hex(std::string_view bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_Digest(bytes.data(), bytes.size(), digest, &len, EVP_sha256(), nullptr);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned i = 0; i < len; ++i) {
    hex += kHex[digest[i] >> 4];
    hex += kHex[digest[i] & 15];
  }
  return hex;
}

Result<std::string> read_whole_file(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Error::FromErrno(errno, "open \"" + path + "\"");
  std::string data;
  struct stat st;
  if (::fstat(fd, &st) == 0 && st.st_size > 0) data.reserve(static_cast<size_t>(st.st_size));
  char buf[65536];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) != 0) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      ::close(fd);
      return Error::FromErrno(err, "read \"" + path + "\"");
    }
    data.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return data;
}

Result<bool> verify_file_hash(const std::string& path, std::string_view bytes) {
  HERMES_ASSIGN_OR_RETURN(std::string on_disk, read_whole_file(path));
  return sha256_hex(on_disk) == sha256_hex(bytes);
}

}  // namespace hermes
