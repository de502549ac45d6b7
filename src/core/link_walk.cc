// SPDX-License-Identifier: MIT
#include "core/link_walk.h"

#include "core/paths.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <vector>

namespace hermes {
namespace {

constexpr int kMaxLinkHops = 40;

// A symlink under /proc that is not a plain relative link (`self`, `mounts`)
// is a magic link (fd/N, cwd, root, exe, ns/…): its text is not a path to
// trust, so it is kept unresolved and any later open refuses it.
bool is_magic_link(const std::string& link, const std::string& target) {
  return is_within(link, "/proc") &&
         (target.empty() || target[0] == '/' || target.find(':') != std::string::npos);
}

// realpath(3) that also follows a dangling link to its target (as
// `realpath -m`): one component at a time, the missing tail kept as text.
struct LinkWalk {
  // `base`: a real directory the walk starts from ("" is `/`).
  LinkWalk(std::string base, std::string_view path, const StayOff* keep_off = nullptr)
      : done(std::move(base)), stay_off(keep_off) {
    push(path);
  }

  void push(std::string_view path) {
    auto parts = path_components(path);
    for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
      if (!it->empty() && *it != ".") todo.push_back(std::move(*it));
    }
  }

  // Consumes one component; false when none are left.
  bool step() {
    if (todo.empty()) return false;
    std::string part = std::move(todo.back());
    todo.pop_back();
    if (part == "..") {
      done.resize(done.empty() ? 0 : done.rfind('/'));
      return true;
    }
    std::string next = done + "/" + part;
    // Asked even past a missing component: `..` may climb back out of it,
    // and the result must not name such a place either.
    if (stay_off && (*stay_off)(next)) {
      refused = std::move(next);
      return false;
    }
    if (missing)
      done = std::move(next);
    else
      follow(next);
    return true;
  }

  void follow(std::string& next) {
    char buf[PATH_MAX];
    ssize_t n = ::readlink(next.c_str(), buf, sizeof buf);
    if (n < 0 || n == static_cast<ssize_t>(sizeof buf)) {
      // ENOENT names a missing component at once; other errors need lstat.
      struct stat st;
      missing = n < 0 && errno != EINVAL && (errno == ENOENT || ::lstat(next.c_str(), &st) != 0);
      done = std::move(next);
      return;
    }
    std::string target(buf, static_cast<size_t>(n));
    if (is_magic_link(next, target)) {
      done = std::move(next);
      missing = true;  // nothing beyond a magic link is resolved
      return;
    }
    ++hops;
    if (target[0] == '/') done.clear();
    push(target);
  }

  std::vector<std::string> todo;  // components still to walk, last first
  std::string done;               // resolved so far ("" is `/`)
  bool missing = false;           // a component did not exist: append text
  int hops = 0;
  const StayOff* stay_off;
  std::string refused;  // the path stay_off kept the walk from
};

Result<std::string> walk_from(std::string base, std::string_view path,
                              const StayOff* stay_off = nullptr) {
  LinkWalk walk(std::move(base), path, stay_off);
  while (walk.step()) {
    if (walk.hops > kMaxLinkHops) {
      return Error::InvalidArgument("too many levels of symbolic links: " + std::string(path));
    }
  }
  if (!walk.refused.empty()) {
    return Error::Unavailable("'" + walk.refused + "' is on a mount whose server may not answer");
  }
  return walk.done.empty() ? "/" : walk.done;
}

// Absolute, no empty, `.` or `..` component, no trailing slash: the walk
// would spell it the same way.
bool is_plain_path(std::string_view path) {
  if (path.size() < 2 || path[0] != '/' || path.back() == '/') return false;
  return path.find("//") == std::string_view::npos && path.find("/./") == std::string_view::npos &&
         path.find("/../") == std::string_view::npos && !path.ends_with("/.") &&
         !path.ends_with("/..");
}

// One system call for the common cases: a path that the kernel opens
// without following any link, at any component, is its own real path; so
// is one it finds missing (ENOENT) before it meets a link, since the
// missing tail is kept as text.
bool holds_no_links(const std::string& path) {
  open_how how{};
  how.flags = O_PATH | O_CLOEXEC;
  how.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
  const long fd = ::syscall(SYS_openat2, AT_FDCWD, path.c_str(), &how, sizeof how);
  if (fd < 0) return errno == ENOENT;  // else a link, or no openat2: walk it
  ::close(static_cast<int>(fd));
  return true;
}

}  // namespace

std::vector<std::string> path_components(std::string_view path) {
  std::vector<std::string> out;
  while (!path.empty()) {
    size_t slash = path.find('/');
    std::string_view part = path.substr(0, slash);
    if (!part.empty()) out.emplace_back(part);
    path.remove_prefix(slash == std::string_view::npos ? path.size() : slash + 1);
  }
  return out;
}

Result<std::string> resolve_links(const std::string& absolute_path) {
  if (is_plain_path(absolute_path) && holds_no_links(absolute_path)) return absolute_path;
  return walk_from("", absolute_path);
}

Result<std::string> resolve_links(const std::string& absolute_path, const StayOff& stay_off) {
  // The kernel's walk of a plain path looks only at its prefixes, which
  // stay_off names whenever it names any of them.
  if (is_plain_path(absolute_path) && !stay_off(absolute_path) && holds_no_links(absolute_path)) {
    return absolute_path;
  }
  return walk_from("", absolute_path, &stay_off);
}

Result<std::string> resolve_links_beneath(const std::string& real_dir, std::string_view relative) {
  return walk_from(real_dir == "/" ? "" : real_dir, relative);
}

}  // namespace hermes
