// SPDX-License-Identifier: MIT
#include "checkpoint/change_watch.h"

#include <fcntl.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <cerrno>

namespace hermes::checkpoint {

namespace {

// Everything that changes an entry's state or a directory's list; the
// close of a written file as well, for writers that go through mmap.
constexpr uint32_t kMask = IN_CREATE | IN_DELETE | IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE |
                           IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR;

// The events that bring a directory in or take one out.
constexpr uint32_t kDirListChange = IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO;

std::string child(const std::string& dir, const char* name) {
  return dir.empty() ? std::string(name) : dir + "/" + name;
}

}  // namespace

Result<ChangeWatch> ChangeWatch::open() {
  proc::UniqueFd fd(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC));
  if (!fd.valid()) return Error::Unavailable(Error::FromErrno(errno, "inotify_init1").message);
  return ChangeWatch(std::move(fd));
}

Status ChangeWatch::add(int dir, const std::string& rel) {
  // Through the fd's /proc link: the directory the walk opened (beneath the
  // root, no link followed), not whatever its path names by now.
  std::string link = "/proc/self/fd/" + std::to_string(dir);
  int wd = ::inotify_add_watch(fd_.get(), link.c_str(), kMask);
  if (wd < 0) {
    return Error::Unavailable(
        Error::FromErrno(errno, "watch \"" + (rel.empty() ? "." : rel) + "\"").message);
  }
  dirs_[wd] = rel;
  return {};
}

WatchedChanges ChangeWatch::take() {
  WatchedChanges out;
  alignas(inotify_event) char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd_.get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return out;
    if (n <= 0) {
      out.lost = true;  // a read error: nothing more can be trusted
      return out;
    }
    for (ssize_t at = 0; at < n;) {
      const auto* event = reinterpret_cast<const inotify_event*>(buf + at);
      at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
      note(event->wd, event->mask, event->len > 0 ? event->name : nullptr, out);
    }
  }
}

void ChangeWatch::note(int wd, uint32_t mask, const char* name, WatchedChanges& out) {
  if ((mask & IN_Q_OVERFLOW) != 0) {
    out.lost = true;
    return;
  }
  auto dir = dirs_.find(wd);
  if (dir == dirs_.end()) return;
  if ((mask & IN_IGNORED) != 0) {  // the watch is gone (its directory removed)
    if (dir->second.empty()) out.lost = true;
    dirs_.erase(dir);
    return;
  }
  if (name == nullptr) {
    // The directory itself: its own mode, or a move or removal that its
    // parent's event names as well. The root's own means the tree is gone.
    if (dir->second.empty()) {
      if ((mask & (IN_DELETE_SELF | IN_MOVE_SELF)) != 0) out.lost = true;
    } else {
      out.entries.insert(dir->second);
    }
    return;
  }
  std::string rel = child(dir->second, name);
  if ((mask & IN_ISDIR) != 0 && (mask & kDirListChange) != 0) {
    out.subtrees.insert(std::move(rel));
  } else {
    out.entries.insert(std::move(rel));
  }
}

}  // namespace hermes::checkpoint
