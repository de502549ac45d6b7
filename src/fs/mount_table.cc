// SPDX-License-Identifier: MIT
// Mount table parsing and the watcher that keeps this process's view
// current.
#include "fs/mount_table.h"

#include "core/paths.h"
#include "core/strings.h"
#include "proc/unique_fd.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <optional>
#include <thread>

namespace hermes::fs {
namespace {

// Enough for tens of thousands of mounts; a longer table is read this far.
constexpr size_t kMaxTableBytes = size_t{16} << 20;

// Undoes the kernel's octal escapes in a mountinfo field (`\040` for a
// space, `\011`, `\012`, `\134`).
std::string unescape(std::string_view field) {
  std::string out;
  out.reserve(field.size());
  for (size_t i = 0; i < field.size(); ++i) {
    const bool octal = field[i] == '\\' && field.size() - i > 3 && field[i + 1] >= '0' &&
                       field[i + 1] <= '3' && field[i + 2] >= '0' && field[i + 2] <= '7' &&
                       field[i + 3] >= '0' && field[i + 3] <= '7';
    if (!octal) {
      out += field[i];
      continue;
    }
    out += static_cast<char>((field[i + 1] - '0') * 64 + (field[i + 2] - '0') * 8 +
                             (field[i + 3] - '0'));
    i += 3;
  }
  return out;
}

// `36 35 98:0 /root /point opts [optional…] - type source superopts`.
std::optional<Mount> parse_line(std::string_view line) {
  const std::vector<std::string> fields = split(line, ' ');
  size_t dash = 6;
  while (dash < fields.size() && fields[dash] != "-") ++dash;
  if (dash + 1 >= fields.size() || fields[4].empty() || fields[4][0] != '/') return std::nullopt;
  return Mount{unescape(fields[4]), unescape(fields[dash + 1])};
}

// Reads `fd` from its start. A table longer than kMaxTableBytes is cut;
// `cut` says so.
std::string read_table(int fd, bool& cut) {
  std::string text;
  cut = false;
  if (::lseek(fd, 0, SEEK_SET) != 0) return text;
  std::array<char, 65536> buf;
  for (;;) {
    ssize_t n = ::read(fd, buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    if (text.size() + static_cast<size_t>(n) > kMaxTableBytes) {
      cut = true;
      break;
    }
    text.append(buf.data(), static_cast<size_t>(n));
  }
  return text;
}

// The waiting mounts of a table read whole; of a cut one, everything (the
// mounts past the cut are not known).
std::shared_ptr<const WaitingMounts> waiting_mounts_of(int fd) {
  bool cut = false;
  std::vector<Mount> mounts = parse_mountinfo(read_table(fd, cut));
  if (cut) mounts = {{"/", "unknown, the table was cut"}};
  return std::make_shared<const WaitingMounts>(mounts, cut);
}

// This process's waiting mounts: loaded at once, then reloaded by a thread
// each time poll says the table changed (the kernel notes the change
// before the mount call returns, so a lookup that starts after a mount
// finds it here once the reload is done). Never destroyed: the thread
// outlives static destruction.
class MountWatch {
 public:
  static const MountWatch& instance() {
    static const MountWatch& watch = *new MountWatch;
    return watch;
  }

  bool any() const { return any_.load(std::memory_order_acquire); }

  // Each thread keeps the snapshot it last used until the generation moves,
  // so a check costs two atomic loads, not a shared reference count.
  bool covers(std::string_view path) const {
    if (!any()) return false;
    thread_local uint64_t seen = 0;
    thread_local std::shared_ptr<const WaitingMounts> mine;
    const uint64_t now = generation_.load(std::memory_order_acquire);
    if (now != seen || !mine) {
      mine = current_.load();
      seen = now;
    }
    return mine->covers(path);
  }

 private:
  MountWatch() : fd_(::open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC)) {
    if (!fd_.valid()) return;
    reload();
    std::thread([this] { watch(); }).detach();
  }

  void reload() {
    std::shared_ptr<const WaitingMounts> mounts = waiting_mounts_of(fd_.get());
    const bool any = !mounts->empty();
    current_.store(std::move(mounts));
    generation_.fetch_add(1, std::memory_order_release);
    any_.store(any, std::memory_order_release);
  }

  void watch() {
    ::pthread_setname_np(::pthread_self(), "mount-watch");
    for (;;) {
      pollfd p{fd_.get(), POLLPRI, 0};
      int ready = ::poll(&p, 1, -1);
      if (ready < 0 && errno == EINTR) continue;
      if (ready < 0 || (p.revents & POLLNVAL)) return;
      reload();
    }
  }

  proc::UniqueFd fd_;
  std::atomic<std::shared_ptr<const WaitingMounts>> current_{
      std::make_shared<const WaitingMounts>(std::vector<Mount>{})};
  std::atomic<uint64_t> generation_{1};
  std::atomic<bool> any_{false};
};

}  // namespace

std::vector<Mount> parse_mountinfo(std::string_view text) {
  std::vector<Mount> mounts;
  for (const std::string& line : split(text, '\n')) {
    if (auto mount = parse_line(line)) mounts.push_back(std::move(*mount));
  }
  return mounts;
}

bool may_wait_on_server(std::string_view type) {
  // FUSE in all its forms (fuse, fuseblk, fuse.sshfs …): a daemon answers.
  if (type == "fuse" || type.starts_with("fuse.") || type == "fuseblk") return true;
  // autofs: a lookup beneath it mounts what it stands for (an NFS home,
  // say) and waits for that mount.
  static constexpr std::array<std::string_view, 22> kNetworked = {
      "nfs",      "nfs4",  "cifs", "smb3",  "smbfs",  "9p",     "ceph",     "glusterfs",
      "lustre",   "afs",   "gpfs", "ncp",   "ncpfs",  "beegfs", "orangefs", "pvfs2",
      "virtiofs", "davfs", "gfs2", "ocfs2", "autofs", "coda"};
  for (std::string_view networked : kNetworked) {
    if (type == networked) return true;
  }
  return false;
}

WaitingMounts::WaitingMounts(const std::vector<Mount>& mounts, bool every_mount) {
  for (const Mount& mount : mounts) {
    if (every_mount || may_wait_on_server(mount.type))
      points_.push_back(PathResolver::normalize(mount.point));
  }
}

bool WaitingMounts::covers(std::string_view absolute_path) const {
  for (const std::string& point : points_) {
    if (is_within(absolute_path, point)) return true;
  }
  return false;
}

bool may_wait_on_server_at(std::string_view absolute_path) {
  return MountWatch::instance().covers(absolute_path);
}

bool any_mount_may_wait() { return MountWatch::instance().any(); }

}  // namespace hermes::fs
