// SPDX-License-Identifier: MIT
// Crash-safe whole-file replacement: a temp file in the target's directory,
// fsync, rename over the target, fsync of the directory. Readers and crashes
// only ever see the old bytes or the new bytes, never a torn mix.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace hermes {

// The one system call tests replace to inject a failure (ENOSPC, EIO…).
using WriteSyscall = std::function<ssize_t(int fd, const void* data, size_t size)>;

struct AtomicWriteOptions {
  // Empty means ::write.
  WriteSyscall write_fn;
};

struct AtomicWriteOutcome {
  std::string written_path;               // the symlink target when `path` was a link
  bool created = false;                   // no file existed before
  std::vector<std::string> created_dirs;  // parents made, outermost first
};

// Replaces the content of `path` with `bytes`. A symlink is followed to its
// final target (a dangling link creates its target) and the link is kept;
// missing parents are created; an existing file keeps its permission bits and
// owner, a new one gets 0666 & ~umask. On any failure the temp file is
// removed and the old content is intact; the error message is the cause.
Result<AtomicWriteOutcome> atomic_write(const std::string& path, std::string_view bytes,
                                        const AtomicWriteOptions& options = {});

// Lowercase hex SHA-256 of `bytes`.
std::string sha256_hex(std::string_view bytes);

// True when the file at `path` holds exactly `bytes` (compared by SHA-256,
// read back from disk); an error when it cannot be read.
Result<bool> verify_file_hash(const std::string& path, std::string_view bytes);

// The whole content of a regular file (kNotFound when missing).
Result<std::string> read_whole_file(const std::string& path);

}  // namespace hermes
