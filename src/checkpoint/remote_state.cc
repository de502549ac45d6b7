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

// A folder above `path` that is a link now (a command made it one) would
// take the restore elsewhere: the native restore refuses that beneath the
// root's fd, this one by the folder's real path on the target.
Status check_no_link_above(const fs::FileSystem& files, const std::string& path) {
  size_t slash = path.rfind('/');
  std::string parent = slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
  HERMES_ASSIGN_OR_RETURN(std::string real, files.real_path(parent));
  if (real == parent) return {};
  return Error::OutsideRoot("a symbolic link on the way: '" + parent + "' leads to '" + real + "'");
}

}  // namespace

Result<PathState> read_state_on(const fs::FileSystem& files, const std::string& path,
                                const Capture& how) {
  auto entry = files.read_entry(path, how.max_bytes);
  if (!entry && gone(entry.error())) return PathState{};
  if (!entry) return entry.error();
  PathState state = state_of_info(entry->info);
  if (state.kind == Kind::kSymlink) state.target = std::move(entry->target);
  // Over the cap, or unreadable: kept by its metadata.
  std::optional<std::string>& bytes = entry->bytes;
  if (state.kind != Kind::kFile || !bytes) return state;
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
  HERMES_TRY(check_no_link_above(files, path));
  // The bytes first: nothing is removed for a content that cannot come.
  std::string bytes;
  if (want.kind == Kind::kFile) {
    HERMES_ASSIGN_OR_RETURN(bytes, objects.get(want.blob));
  }
  // What is there goes first when it is of another kind, or a link (a link
  // cannot be written over in place here).
  bool replace =
      have.kind != Kind::kAbsent && (have.kind != want.kind || have.kind == Kind::kSymlink);
  if (replace) HERMES_TRY(remove_entry(files, path, have.kind));
  switch (want.kind) {
    case Kind::kAbsent:
      return {};
    case Kind::kDir:
      if (have.kind != Kind::kDir) return files.make_dir(path, want.mode);
      return files.set_mode(path, want.mode);
    case Kind::kSymlink:
      return files.make_symlink(want.target, path);
    case Kind::kFile:
      HERMES_TRY(files.write_atomic(path, bytes, {.sync = false}));
      return files.set_mode(path, want.mode);
    case Kind::kOther:
    case Kind::kIgnoredDir:
      break;
  }
  return Error::Unavailable("its content was not kept");
}

}  // namespace hermes::checkpoint
