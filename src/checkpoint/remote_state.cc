// SPDX-License-Identifier: MIT
#include "checkpoint/remote_state.h"

#include "fs/atomic_write.h"

#include "checkpoint/apply_state.h"

namespace hermes::checkpoint {

namespace {

PathState state_of_info(const fs::FileInfo& info) {
  PathState state;
  state.mode = info.mode & 07777;
  switch (info.type) {
    case fs::FileType::kRegular:
      state.kind = Kind::kFile;
      state.size = info.size;
      state.mtime_ns = info.mtime_ns;
      break;
    case fs::FileType::kDirectory:
      state.kind = Kind::kDir;
      break;
    case fs::FileType::kSymlink:
      state.kind = Kind::kSymlink;
      break;
    default:
      state.kind = Kind::kOther;
  }
  return state;
}

// ENOENT, or ENOTDIR: a parent is no directory.
bool gone(const Error& error) { return error.code == ErrorCode::kNotFound; }

Status remove_entry(const fs::FileSystem& files, const std::string& path, Kind kind) {
  Status removed = kind == Kind::kDir ? files.remove_dir(path) : files.remove(path);
  if (!removed && !gone(removed.error())) return removed;
  return {};
}

}  // namespace

Result<PathState> read_state_on(const fs::FileSystem& files, const std::string& path,
                                const Capture& how) {
  auto info = files.lstat(path);
  if (!info && gone(info.error())) return PathState{};
  if (!info) return info.error();
  PathState state = state_of_info(*info);
  if (state.kind == Kind::kSymlink) {
    HERMES_ASSIGN_OR_RETURN(state.target, files.read_link(path));
    return state;
  }
  if (state.kind != Kind::kFile || state.size > how.max_bytes ||
      state.size > fs::kMaxWholeFileBytes) {
    return state;
  }
  auto bytes = files.read_all(path);
  if (!bytes && bytes.error().code == ErrorCode::kPermissionDenied) return state;
  if (!bytes) return bytes.error();
  state.size = bytes->size();
  if (how.store != nullptr) {
    HERMES_ASSIGN_OR_RETURN(state.blob, how.store->put(*bytes, how.base));
  } else {
    state.blob = fs::sha256_hex(*bytes);
  }
  if (how.content != nullptr) *how.content = std::move(*bytes);
  return state;
}

Status apply_state_on(const fs::FileSystem& files, const std::string& path, const PathState& have,
                      const PathState& want, const WorkspaceObjects& objects) {
  HERMES_TRY(check_restorable(have, want));
  // What is there goes first when it is of another kind, or a link (a link
  // cannot be written over in place here).
  bool replace = have.kind != Kind::kAbsent &&
                 (have.kind != want.kind || have.kind == Kind::kSymlink);
  if (replace) HERMES_TRY(remove_entry(files, path, have.kind));
  switch (want.kind) {
    case Kind::kAbsent:
      return {};
    case Kind::kDir:
      if (have.kind != Kind::kDir) return files.make_dir(path, want.mode);
      return files.set_mode(path, want.mode);
    case Kind::kSymlink:
      return files.make_symlink(want.target, path);
    case Kind::kFile: {
      HERMES_ASSIGN_OR_RETURN(std::string bytes, objects.get(want.blob));
      HERMES_TRY(files.write_atomic(path, bytes, {.sync = false}));
      return files.set_mode(path, want.mode);
    }
    case Kind::kOther:
    case Kind::kIgnoredDir:
      break;
  }
  return Error::Unavailable("its content was not kept");
}

}  // namespace hermes::checkpoint
