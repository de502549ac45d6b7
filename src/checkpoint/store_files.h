// SPDX-License-Identifier: MIT
// The store's own files under the Hermes home (never the workspace's):
// private directories, whole-file replacement by rename, and the advisory
// lock that orders the sessions (and processes) using one workspace.
#pragma once

#include "core/result.h"
#include "proc/unique_fd.h"

#include <string>
#include <string_view>

namespace hermes::checkpoint {

// mkdir -p with mode 0700 for each directory made.
Status make_private_dirs(const std::string& dir);

// Writes all of `bytes` to `fd` (`path` names it in errors).
Status write_all(int fd, std::string_view bytes, const std::string& path);

// A temp file beside `path`, then a rename over it: readers see the old
// file or the new one. No fsync: a checkpoint is a convenience, and an
// fsync per edit costs more than a tool edit's whole budget
// (docs/checkpoints.md). Missing directories are made.
Status replace_file(const std::string& path, std::string_view bytes);

// Creates `path` with `bytes` unless it exists (then nothing is written):
// an unnamed O_TMPFILE linked in, so no reader sees it half-written and a
// killed writer leaves nothing; a named temp where O_TMPFILE is refused.
Status create_file(const std::string& path, std::string_view bytes);

// An unnamed file (O_TMPFILE) in `dir` (made when missing), opened with
// `access` (O_WRONLY, O_RDWR), and its linking in at `path` (an existing
// `path` is kept): a killed writer leaves nothing behind.
Result<proc::UniqueFd> open_unnamed(const std::string& dir, int access);
Status link_unnamed(int fd, const std::string& path);

// Appends `bytes` to `path` (created 0600) in one write.
Status append_file(const std::string& path, std::string_view bytes);

// A flock(2) on `path` (created), held until destruction: exclusive, or
// shared (the calls' hold on the store, which pruning takes exclusively).
class FileLock {
 public:
  static Result<FileLock> acquire(const std::string& path, bool shared = false);

 private:
  explicit FileLock(proc::UniqueFd fd) : fd_(std::move(fd)) {}
  proc::UniqueFd fd_;
};

}  // namespace hermes::checkpoint
