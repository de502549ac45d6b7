// SPDX-License-Identifier: MIT
#include "checkpoint/path_state.h"

#include "fs/atomic_write.h"
#include "fs/contained_write.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>

namespace hermes::checkpoint {

bool PathState::same_as(const PathState& other) const {
  if (kind != other.kind) return false;
  if (kind == Kind::kAbsent) return true;
  if (mode != other.mode) return false;
  if (kind == Kind::kSymlink) return target == other.target;
  if (kind != Kind::kFile) return true;
  if (!blob.empty() && !other.blob.empty()) return blob == other.blob;
  return size == other.size && mtime_ns == other.mtime_ns;
}

PathState state_of_stat(const struct ::stat& st) {
  PathState state;
  state.mode = st.st_mode & 07777;
  if (S_ISREG(st.st_mode)) {
    state.kind = Kind::kFile;
    state.size = static_cast<uint64_t>(st.st_size);
    state.mtime_ns = st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
  } else if (S_ISDIR(st.st_mode)) {
    state.kind = Kind::kDir;
  } else if (S_ISLNK(st.st_mode)) {
    state.kind = Kind::kSymlink;
  } else {
    state.kind = Kind::kOther;
  }
  return state;
}

namespace {

Result<std::string> read_link(int dir, const std::string& name, const std::string& path) {
  std::array<char, 4096> buf{};
  ssize_t n = ::readlinkat(dir, name.c_str(), buf.data(), buf.size());
  if (n < 0) return Error::FromErrno(errno, "readlink \"" + path + "\"");
  return std::string(buf.data(), static_cast<size_t>(n));
}

Status read_content(const fs::Beneath& root, const std::string& path, PathState& state,
                    const Capture& how) {
  auto opened = root.open(path, O_RDONLY | O_NONBLOCK);
  // A file this process may not read (another user's: a container's, in a
  // bound workspace) is kept by its metadata alone; restore names it.
  if (!opened && opened.error().code == ErrorCode::kPermissionDenied) return {};
  HERMES_ASSIGN_OR_RETURN(proc::UniqueFd fd, std::move(opened));
  if (how.store != nullptr && how.base == nullptr && how.content == nullptr) {
    if (auto cloned = how.store->put_clone(fd.get(), how.max_bytes)) {
      state.blob = std::move(cloned->hash);
      state.size = cloned->size;
      return {};
    }
  }
  HERMES_ASSIGN_OR_RETURN(std::string bytes, fs::read_whole_fd(fd.get(), path, how.max_bytes));
  if (how.store != nullptr) {
    HERMES_ASSIGN_OR_RETURN(state.blob, how.store->put(bytes, how.base));
  } else {
    state.blob = fs::sha256_hex(bytes);
  }
  state.size = bytes.size();
  if (how.content != nullptr) *how.content = std::move(bytes);
  return {};
}

}  // namespace

Result<PathState> read_state(const fs::Beneath& root, const std::string& real_path,
                             const Capture& how) {
  auto opened = root.open_parent(real_path);
  if (!opened && opened.error().code == ErrorCode::kNotFound) return PathState{};
  if (!opened) return opened.error();
  fs::Beneath::Parent parent = std::move(*opened);
  struct ::stat st {};
  if (::fstatat(parent.dir, parent.name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) return PathState{};
    return Error::FromErrno(errno, "stat \"" + real_path + "\"");
  }
  PathState state = state_of_stat(st);
  if (state.kind == Kind::kSymlink) {
    HERMES_ASSIGN_OR_RETURN(state.target, read_link(parent.dir, parent.name, real_path));
  } else if (state.kind == Kind::kFile && state.size <= how.max_bytes) {
    HERMES_TRY(read_content(root, real_path, state, how));
  }
  return state;
}

const char* kind_name(Kind kind) {
  switch (kind) {
    case Kind::kAbsent:
      return "absent";
    case Kind::kFile:
      return "file";
    case Kind::kDir:
      return "dir";
    case Kind::kSymlink:
      return "symlink";
    case Kind::kOther:
      return "other";
    case Kind::kIgnoredDir:
      return "ignored-dir";
  }
  return "other";
}

Kind kind_from_name(std::string_view name) {
  for (Kind kind : {Kind::kAbsent, Kind::kFile, Kind::kDir, Kind::kSymlink, Kind::kIgnoredDir}) {
    if (name == kind_name(kind)) return kind;
  }
  return Kind::kOther;
}

}  // namespace hermes::checkpoint
