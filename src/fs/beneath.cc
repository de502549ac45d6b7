// SPDX-License-Identifier: MIT
// Beneath: openat2 when the kernel has it, else a per-component O_NOFOLLOW
// walk; both refuse every symbolic link and every `..`.
#include "fs/beneath.h"

#include "core/link_walk.h"
#include "core/paths.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <string_view>

namespace hermes::fs {
namespace {

constexpr int kDirFlags = O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;

// Forced by set_walk_mode, or for the whole process by
// HERMES_FS_WALK=components (how the tests drive the binary's fallback).
std::atomic<bool> g_components{[] {
  const char* mode = std::getenv("HERMES_FS_WALK");
  return mode && std::string_view(mode) == "components";
}()};
std::atomic<bool> g_no_openat2{false};  // learnt from ENOSYS

// Beneath `dir`, or from the process's current `/` when `dir` is
// AT_FDCWD and `path` absolute (the whole tree is beneath it).
int sys_openat2(int dir, const char* path, int flags, mode_t mode) {
  open_how how{};
  how.flags = static_cast<uint64_t>(flags);
  how.mode = (flags & (O_CREAT | O_TMPFILE)) ? mode : 0;
  how.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
  if (dir != AT_FDCWD) how.resolve |= RESOLVE_BENEATH;
  return static_cast<int>(::syscall(SYS_openat2, dir, path, &how, sizeof how));
}

// ENOTDIR from an O_NOFOLLOW|O_DIRECTORY open means a link or a non-directory.
int refine_errno(int dir, const std::string& name, int err) {
  struct stat st;
  if (err == ENOTDIR && ::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
      S_ISLNK(st.st_mode)) {
    return ELOOP;
  }
  return err;
}

proc::UniqueFd open_at(int dir, const std::string& name, int flags, mode_t mode = 0) {
  return proc::UniqueFd(::openat(dir, name.c_str(), flags | O_CLOEXEC, mode));
}

std::string join_under(const std::string& root, const std::string& rel) {
  return root == "/" ? "/" + rel : root + "/" + rel;
}

}  // namespace

void set_walk_mode(WalkMode mode) { g_components = mode == WalkMode::kComponents; }

bool walk_uses_openat2() { return !g_components && !g_no_openat2; }

Error walk_error(int err, const std::string& context, const std::string& path) {
  if (err == ELOOP) {
    return Error::PermissionDenied(
        context + ": refusing to follow a symbolic link on the way to '" + path +
        "' (the path changed after it was checked, or it goes through a /proc magic link)");
  }
  if (err == EXDEV)
    return Error::OutsideRoot(context + ": '" + path + "' is outside the workspace root");
  return Error::FromErrno(err, context);
}

Result<Beneath> Beneath::open_root(const std::string& root) {
  proc::UniqueFd fd(::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!fd.valid()) return Error::FromErrno(errno, "open workspace root \"" + root + "\"");
  if (root == "/") fd.reset();  // see base()
  return Beneath(std::move(fd), root);
}

proc::UniqueFd Beneath::base() const {
  // `/` is opened per walk: a pinned one would keep the mount namespace of
  // its first use (a child that unshares and mounts would write beneath).
  if (!fd_.valid()) return proc::UniqueFd(::open("/", kDirFlags));
  return open_at(fd_.get(), ".", kDirFlags);
}

Result<std::string> Beneath::relative(const std::string& path) const {
  if (path.empty() || path[0] != '/' || !is_within(path, root_)) {
    return Error::OutsideRoot("'" + path + "' is outside the workspace root '" + root_ + "'");
  }
  std::string rel =
      root_ == "/" ? path.substr(1) : path.substr(std::min(path.size(), root_.size() + 1));
  while (!rel.empty() && rel.back() == '/') rel.pop_back();
  if (rel.find("//") != std::string::npos)
    return Error::InvalidArgument("'" + path + "' is not a normalized path");
  for (const auto& part : path_components(rel)) {
    if (part == "." || part == "..") {
      return Error::InvalidArgument("'" + path + "' is not a normalized path");
    }
  }
  return rel;
}

proc::UniqueFd Beneath::walk(const std::string& rel, int flags, mode_t mode) const {
  flags |= O_CLOEXEC | O_NOFOLLOW;
  if (!rel.empty() && walk_uses_openat2()) {
    // No fresh root fd needed: the pinned one, or `/` named in the path.
    const int dir = fd_.valid() ? fd_.get() : AT_FDCWD;
    const std::string path = fd_.valid() ? rel : "/" + rel;
    int fd = sys_openat2(dir, path.c_str(), flags, mode);
    if (fd < 0 && errno != ENOSYS) errno = refine_errno(dir, path, errno);
    if (fd >= 0 || errno != ENOSYS) return proc::UniqueFd(fd);
    g_no_openat2 = true;
  }
  proc::UniqueFd dir = base();
  if (rel.empty()) return open_at(dir.get(), ".", flags & ~O_NOFOLLOW, mode);
  auto parts = path_components(rel);
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    proc::UniqueFd next = open_at(dir.get(), parts[i], kDirFlags);
    if (!next.valid()) {
      errno = refine_errno(dir.get(), parts[i], errno);
      return next;
    }
    dir = std::move(next);
  }
  proc::UniqueFd fd = open_at(dir.get(), parts.back(), flags, mode);
  if (!fd.valid()) errno = refine_errno(dir.get(), parts.back(), errno);
  return fd;
}

Result<proc::UniqueFd> Beneath::open(const std::string& path, int flags, mode_t mode,
                                     const std::string& context) const {
  HERMES_ASSIGN_OR_RETURN(std::string rel, relative(path));
  proc::UniqueFd fd = walk(rel, flags, mode);
  if (!fd.valid())
    return walk_error(errno, context.empty() ? "open \"" + path + "\"" : context, path);
  return fd;
}

Result<proc::UniqueFd> Beneath::walk_dirs(const std::string& rel, const std::string& path,
                                          std::vector<std::string>& created) const {
  proc::UniqueFd dir = base();
  std::string done;
  for (const auto& part : path_components(rel)) {
    done += (done.empty() ? "" : "/") + part;
    proc::UniqueFd next = open_at(dir.get(), part, kDirFlags);
    if (!next.valid() && errno == ENOENT) {
      const int made = ::mkdirat(dir.get(), part.c_str(), 0777);
      if (made != 0 && errno != EEXIST) {
        return Error::FromErrno(errno, "mkdir \"" + join_under(root_, done) + "\"");
      }
      if (made == 0) created.push_back(join_under(root_, done));
      next = open_at(dir.get(), part, kDirFlags);
    }
    if (!next.valid()) {
      const int err = refine_errno(dir.get(), part, errno);
      if (err == ENOTDIR) return Error::Io("not a directory: " + join_under(root_, done));
      return walk_error(err, "open directory \"" + join_under(root_, done) + "\"", path);
    }
    dir = std::move(next);
  }
  return dir;
}

Result<Beneath::Parent> Beneath::open_parent(const std::string& path,
                                             std::vector<std::string>* created,
                                             const std::string& context) const {
  HERMES_ASSIGN_OR_RETURN(std::string rel, relative(path));
  if (rel.empty()) return in_root(".");
  size_t slash = rel.rfind('/');
  std::string dir_rel = slash == std::string::npos ? "" : rel.substr(0, slash);
  std::string name = slash == std::string::npos ? rel : rel.substr(slash + 1);
  if (dir_rel.empty()) return in_root(std::move(name));
  proc::UniqueFd dir = walk(dir_rel, O_PATH | O_DIRECTORY, 0);
  if (!dir.valid()) {
    if (!created)
      return walk_error(errno, context.empty() ? "open \"" + path + "\"" : context, path);
    HERMES_ASSIGN_OR_RETURN(dir, walk_dirs(dir_rel, path, *created));
  }
  const int fd = dir.get();
  return Parent{fd, std::move(dir), std::move(name)};
}

Beneath::Parent Beneath::in_root(std::string name) const {
  if (fd_.valid()) return Parent{fd_.get(), {}, std::move(name)};
  proc::UniqueFd dir = base();
  const int fd = dir.get();
  return Parent{fd, std::move(dir), std::move(name)};
}

}  // namespace hermes::fs
