// SPDX-License-Identifier: MIT
// atomic_write and its helpers: the RAII temp file (O_TMPFILE or named),
// stale-temp cleanup (once a minute per directory), and SHA-256 read-back
// verification.
#include "fs/atomic_write.h"

#include "core/link_walk.h"
#include "core/paths.h"
#include "core/strings.h"
#include "fs/contained_write.h"

#include <openssl/evp.h>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>

namespace hermes::fs {
namespace {

constexpr std::string_view kTempPrefix = ".hermes-tmp.";

std::string dir_of(const std::string& path) {
  auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

mode_t process_umask() {
  static const mode_t mask = [] {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
      if (line.rfind("Umask:", 0) == 0)
        return static_cast<mode_t>(std::stoul(line.substr(6), nullptr, 8));
    }
    return static_cast<mode_t>(022);
  }();
  return mask;
}

// `.hermes-tmp.<pid>.<random>`: the pid tells a dead writer's leftover.
std::string temp_name() {
  static std::atomic<unsigned> counter{0};
  std::random_device rd;
  return std::string(kTempPrefix) + std::to_string(::getpid()) + "." + std::to_string(rd()) + "." +
         std::to_string(counter++);
}

constexpr auto kCleanEvery = std::chrono::seconds(60);
constexpr size_t kCleanedDirsKept = 1024;

// Whether the directory at `dir_path` is due for a look for stale temps: at
// most once a minute per directory and process, since the look reads the
// whole directory and a write must not cost more in a folder of many files.
bool due_for_cleaning(const std::string& dir_path) {
  static std::mutex mu;
  static std::map<std::string, std::chrono::steady_clock::time_point> last_cleaned;
  const auto now = std::chrono::steady_clock::now();
  std::lock_guard lock(mu);
  if (last_cleaned.size() >= kCleanedDirsKept) last_cleaned.clear();
  auto [it, first] = last_cleaned.try_emplace(dir_path, now);
  if (first) return true;
  if (now - it->second < kCleanEvery) return false;
  it->second = now;
  return true;
}

// Removes `.hermes-tmp.<pid>.*` files whose writer is gone (killed mid-write).
void clean_stale_temps(int dir, const std::string& dir_path) {
  if (!due_for_cleaning(dir_path)) return;
  int fd = ::openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  std::unique_ptr<DIR, int (*)(DIR*)> listing(::fdopendir(fd), ::closedir);
  if (!listing) return (void)::close(fd);
  while (struct dirent* entry = ::readdir(listing.get())) {
    std::string_view name = entry->d_name;
    if (!name.starts_with(kTempPrefix)) continue;
    name.remove_prefix(kTempPrefix.size());
    auto dot = name.find('.');
    if (dot == std::string_view::npos || dot == 0) continue;
    pid_t pid = 0;
    auto [end, ec] = std::from_chars(name.data(), name.data() + dot, pid);
    if (ec != std::errc() || end != name.data() + dot || pid <= 0) continue;
    if (::kill(pid, 0) != 0 && errno == ESRCH) ::unlinkat(dir, entry->d_name, 0);
  }
}

// The temp file, unnamed (O_TMPFILE) when the file system allows: closed,
// and unlinked when it had a name, on scope exit unless committed.
class TempFile {
 public:
  TempFile(int dir, bool named) : dir_(dir) {
    if (!named) fd_ = ::openat(dir, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd_ < 0) make_named();
  }
  ~TempFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!name_.empty() && !committed_) ::unlinkat(dir_, name_.c_str(), 0);
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  bool ok() const { return fd_ >= 0; }
  int fd() const { return fd_; }

  // Puts the file at `target` in the directory: linkat for a new name
  // (atomic, never replaces), else a temp name renamed over it.
  Status commit(const std::string& target, bool exists, const std::string& display) {
    if (name_.empty() && !exists && link_as(target) == 0) return committed_ = true, Status{};
    if (name_.empty() && link_as(name_ = temp_name()) != 0) {
      name_.clear();
      return Error::FromErrno(errno, "link temp file for \"" + display + "\"");
    }
    if (::renameat(dir_, name_.c_str(), dir_, target.c_str()) != 0) {
      return Error::FromErrno(errno, "rename to \"" + display + "\"");
    }
    committed_ = true;
    return {};
  }

 private:
  void make_named() {
    for (int attempt = 0; attempt < 16 && fd_ < 0; ++attempt) {
      name_ = temp_name();
      fd_ = ::openat(dir_, name_.c_str(), O_CREAT | O_EXCL | O_RDWR | O_NOFOLLOW | O_CLOEXEC, 0600);
      if (fd_ < 0 && errno != EEXIST) break;
    }
    if (fd_ < 0) name_.clear();
  }
  int link_as(const std::string& name) {
    const std::string self = "/proc/self/fd/" + std::to_string(fd_);
    return ::linkat(AT_FDCWD, self.c_str(), dir_, name.c_str(), AT_SYMLINK_FOLLOW);
  }

  int dir_;
  int fd_ = -1;
  std::string name_;  // empty while unnamed
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

// What is at the target now: nothing, or a file whose mode and owner the
// new one takes; a link (a swap racing us) or a directory is refused.
Result<std::optional<struct stat>> existing_target(int dir, const std::string& name,
                                                   const std::string& path) {
  struct stat st;
  if (::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    if (errno == ENOENT) return std::optional<struct stat>();
    return Error::FromErrno(errno, "stat \"" + path + "\"");
  }
  if (S_ISLNK(st.st_mode)) return walk_error(ELOOP, "write \"" + path + "\"", path);
  if (S_ISDIR(st.st_mode)) return Error::FromErrno(EISDIR, "rename to \"" + path + "\"");
  return std::optional<struct stat>(st);
}

void apply_mode(int fd, const std::optional<struct stat>& existing) {
  if (!existing) {
    ::fchmod(fd, 0666 & ~process_umask());
    return;
  }
  ::fchmod(fd, existing->st_mode & 07777);
  if (::fchown(fd, existing->st_uid, existing->st_gid) != 0) {
    // Best effort, as upstream's chmod/chown copy: an unprivileged writer
    // cannot give the file away and keeps ownership itself.
  }
}

void fsync_dir(int dir) {
  int fd = ::openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

// Content and fsync of the temp file.
Status fill(TempFile& temp, std::string_view bytes, const AtomicWriteOptions& options) {
  HERMES_TRY(write_all(temp.fd(), bytes, options.write_fn));
  if (options.sync && ::fsync(temp.fd()) != 0) return Error::FromErrno(errno, "fsync temp file");
  return {};
}

}  // namespace

const Beneath& filesystem_root() {
  static const Beneath root = std::move(Beneath::open_root("/")).value();
  return root;
}

Result<AtomicWriteOutcome> atomic_write_beneath(const Beneath& root, const std::string& real_path,
                                                std::string_view bytes,
                                                const AtomicWriteOptions& options, TempKind kind) {
  AtomicWriteOutcome out;
  out.written_path = real_path;
  HERMES_ASSIGN_OR_RETURN(Beneath::Parent parent, root.open_parent(real_path, &out.created_dirs));
  const int dir = parent.dir;
  HERMES_ASSIGN_OR_RETURN(auto existing, existing_target(dir, parent.name, real_path));
  out.created = !existing;
  clean_stale_temps(dir, dir_of(real_path));
  TempFile temp(dir, kind == TempKind::kNamed);
  if (!temp.ok())
    return Error::FromErrno(errno, "create temp file in \"" + dir_of(real_path) + "\"");
  apply_mode(temp.fd(), existing);
  HERMES_TRY(fill(temp, bytes, options));
  HERMES_TRY(temp.commit(parent.name, existing.has_value(), real_path));
  if (options.sync) fsync_dir(dir);
  return out;
}

Result<AtomicWriteOutcome> atomic_write(const std::string& path, std::string_view bytes,
                                        const AtomicWriteOptions& options) {
  std::string absolute = path;
  if (!absolute.starts_with('/')) absolute = PathResolver::workspace("") + "/" + absolute;
  HERMES_ASSIGN_OR_RETURN(std::string real, resolve_links(PathResolver::normalize(absolute)));
  return atomic_write_beneath(filesystem_root(), real, bytes, options);
}

std::string sha256_hex(std::string_view bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_Digest(bytes.data(), bytes.size(), digest, &len, EVP_sha256(), nullptr);
  return hex_encode(std::string_view(reinterpret_cast<const char*>(digest), len));
}

// Reads straight into the string (sized from fstat, grown if the file grew).
Result<std::string> read_whole_fd(int fd, const std::string& path, uint64_t max_bytes) {
  struct stat st;
  uint64_t expect = ::fstat(fd, &st) == 0 && st.st_size > 0 ? static_cast<uint64_t>(st.st_size) : 0;
  std::string data(static_cast<size_t>(std::min(expect, max_bytes)) + 1, '\0');
  size_t have = 0;
  for (;;) {
    if (have == data.size()) data.resize(data.size() + 65536);
    ssize_t n = ::pread(fd, data.data() + have, data.size() - have, static_cast<off_t>(have));
    if (n == 0) break;
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Error::FromErrno(errno, "read \"" + path + "\"");
    if (have + static_cast<uint64_t>(n) > max_bytes) {
      return Error::TooLarge("'" + path + "' grew past the " + std::to_string(max_bytes) +
                             "-byte limit while being read");
    }
    have += static_cast<size_t>(n);
  }
  data.resize(have);
  return data;
}

Result<bool> fd_holds(int fd, const std::string& path, std::string_view bytes) {
  char buf[65536];
  size_t at = 0;
  for (;;) {
    ssize_t n = ::pread(fd, buf, sizeof buf, static_cast<off_t>(at));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Error::FromErrno(errno, "read \"" + path + "\"");
    if (n == 0) return at == bytes.size();
    auto got = static_cast<size_t>(n);
    if (at + got > bytes.size() || std::memcmp(buf, bytes.data() + at, got) != 0) return false;
    at += got;
  }
}

Result<std::string> read_whole_file(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Error::FromErrno(errno, "open \"" + path + "\"");
  auto data = read_whole_fd(fd, path);
  ::close(fd);
  return data;
}

}  // namespace hermes::fs
