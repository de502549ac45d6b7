// SPDX-License-Identifier: MIT
#include "checkpoint/apply_state.h"

#include "fs/contained_write.h"
#include "proc/unique_fd.h"

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <functional>

#include "checkpoint/store_files.h"

namespace hermes::checkpoint {

namespace {

Status remove_entry(const fs::Beneath::Parent& parent, const std::string& path, Kind kind) {
  int flags = kind == Kind::kDir ? AT_REMOVEDIR : 0;
  if (::unlinkat(parent.dir, parent.name.c_str(), flags) != 0 && errno != ENOENT) {
    return Error::FromErrno(errno, "remove \"" + path + "\"");
  }
  return {};
}

Status set_mode(const fs::Beneath::Parent& parent, const std::string& path, uint32_t mode) {
  if (::fchmodat(parent.dir, parent.name.c_str(), mode, 0) != 0) {
    return Error::FromErrno(errno, "chmod \"" + path + "\"");
  }
  return {};
}

Status make_link(const fs::Beneath::Parent& parent, const std::string& path,
                 const std::string& target) {
  static std::atomic<uint64_t> counter{0};
  std::string temp =
      ".hermes-tmp." + std::to_string(::getpid()) + ".link" + std::to_string(++counter);
  if (::symlinkat(target.c_str(), parent.dir, temp.c_str()) != 0) {
    return Error::FromErrno(errno, "symlink \"" + path + "\"");
  }
  if (::renameat(parent.dir, temp.c_str(), parent.dir, parent.name.c_str()) != 0) {
    Error error = Error::FromErrno(errno, "rename over \"" + path + "\"");
    ::unlinkat(parent.dir, temp.c_str(), 0);
    return error;
  }
  return {};
}

// Makes a file in `stage`, has `fill` write its content, gives it `mode`
// and renames it over `parent`'s entry; false when `stage` is on another
// file system (the caller writes beside the file instead).
Result<bool> write_staged(int stage, const fs::Beneath::Parent& parent, const std::string& path,
                          uint32_t mode, const std::function<Status(int fd)>& fill) {
  struct stat staged {
  }, target{};
  if (stage < 0 || ::fstat(stage, &staged) != 0 || ::fstat(parent.dir, &target) != 0 ||
      staged.st_dev != target.st_dev) {
    return false;
  }
  static std::atomic<uint64_t> counter{0};
  std::string temp = std::to_string(::getpid()) + "." + std::to_string(++counter);
  proc::UniqueFd fd(::openat(stage, temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600));
  if (!fd.valid()) return Error::FromErrno(errno, "create a staged copy of \"" + path + "\"");
  Status written = fill(fd.get());
  if (written && ::fchmod(fd.get(), mode) != 0)
    written = Error::FromErrno(errno, "chmod \"" + path + "\"");
  if (written && ::renameat(stage, temp.c_str(), parent.dir, parent.name.c_str()) == 0) return true;
  int err = errno;
  ::unlinkat(stage, temp.c_str(), 0);
  if (!written) return written.error();
  if (err == EXDEV) return false;  // one device, two mounts
  return Error::FromErrno(err, "rename over \"" + path + "\"");
}

// A file's content, with its mode, into place: a clone of the store's
// clone when there is one (no bytes copied), else its bytes; any failure
// of the clone falls back to the bytes.
Status put_file(const fs::Beneath& root, const fs::Beneath::Parent& parent,
                const std::string& real_path, const PathState& want, const WorkspaceObjects& store,
                int stage) {
  proc::UniqueFd clone(::open(store.shared().raw_path_of(want.blob).c_str(), O_RDONLY | O_CLOEXEC));
  if (clone.valid()) {
    auto cloned = write_staged(stage, parent, real_path, want.mode, [&](int fd) -> Status {
      if (::ioctl(fd, FICLONE, clone.get()) != 0) return Error::FromErrno(errno, "clone");
      return {};
    });
    if (cloned && *cloned) return {};
  }
  HERMES_ASSIGN_OR_RETURN(std::string bytes, store.get(want.blob));
  HERMES_ASSIGN_OR_RETURN(bool staged,
                          write_staged(stage, parent, real_path, want.mode,
                                       [&](int fd) { return write_all(fd, bytes, real_path); }));
  if (staged) return {};
  HERMES_TRY(fs::atomic_write_beneath(root, real_path, bytes, {.sync = false}));
  return set_mode(parent, real_path, want.mode);
}

}  // namespace

Status check_restorable(const PathState& have, const PathState& want) {
  if (want.kind == Kind::kIgnoredDir || have.kind == Kind::kIgnoredDir) {
    return Error::Unavailable(
        "an ignored folder (checkpoints.ignore): only its metadata was kept, so it is neither "
        "removed nor made");
  }
  if (want.unrecoverable()) return Error::Unavailable("its content was not kept");
  return {};
}

Status apply_state(const fs::Beneath& root, const std::string& real_path, const PathState& have,
                   const PathState& want, const WorkspaceObjects& store, int stage) {
  HERMES_TRY(check_restorable(have, want));
  std::vector<std::string> created;
  HERMES_ASSIGN_OR_RETURN(
      fs::Beneath::Parent parent,
      root.open_parent(real_path, want.kind == Kind::kAbsent ? nullptr : &created));
  // What is there goes first when it is of another kind (a directory only
  // when empty: its entries are restored, or refused, on their own).
  bool replace = have.kind != want.kind && have.kind != Kind::kAbsent;
  if (replace || (want.kind == Kind::kAbsent && have.kind != Kind::kAbsent)) {
    HERMES_TRY(remove_entry(parent, real_path, have.kind));
  }
  switch (want.kind) {
    case Kind::kAbsent:
      return {};
    case Kind::kDir:
      if (have.kind != Kind::kDir && ::mkdirat(parent.dir, parent.name.c_str(), want.mode) != 0) {
        return Error::FromErrno(errno, "mkdir \"" + real_path + "\"");
      }
      return set_mode(parent, real_path, want.mode);
    case Kind::kSymlink:
      return make_link(parent, real_path, want.target);
    case Kind::kFile:
      return put_file(root, parent, real_path, want, store, stage);
    case Kind::kOther:
    case Kind::kIgnoredDir:
      break;
  }
  return Error::Unavailable("its content was not kept");
}

}  // namespace hermes::checkpoint
