// SPDX-License-Identifier: MIT
// Crash-safe whole-file replacement: a temp file in the target's directory
// (O_TMPFILE where it works), fsync, linked or renamed over the target, fsync
// of the directory. Readers and crashes only see old bytes or new bytes.
#pragma once

#include "core/result.h"

#include <sys/types.h>

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace hermes::fs {

// The one system call tests replace to inject a failure (ENOSPC, EIO…).
using WriteSyscall = std::function<ssize_t(int fd, const void* data, size_t size)>;

struct AtomicWriteOptions {
  // Empty means ::write.
  WriteSyscall write_fn;
  // fsync the file and its directory before returning. A checkpoint
  // restore, writing a thousand files, turns it off: the rename alone leaves
  // a killed writer's file old or new, as a shell command's own writes are
  // (docs/checkpoints.md).
  bool sync = true;
};

struct AtomicWriteOutcome {
  std::string written_path;               // the symlink target when `path` was a link
  bool created = false;                   // no file existed before
  std::vector<std::string> created_dirs;  // parents made, outermost first
};

// atomic_write_beneath (fs/contained_write.h) under `/`, for the server's
// own files: a symlink at `path` is followed to its final target first (a
// dangling link creates its target) and the link is kept; missing parents are
// created; an existing file keeps its permission bits and owner, a new one
// gets 0666 & ~umask. On failure the old content is intact, no temp is left.
Result<AtomicWriteOutcome> atomic_write(const std::string& path, std::string_view bytes,
                                        const AtomicWriteOptions& options = {});

// Lowercase hex SHA-256 of `bytes`.
std::string sha256_hex(std::string_view bytes);

// The whole content of a regular file (kNotFound when missing).
Result<std::string> read_whole_file(const std::string& path);

}  // namespace hermes::fs
