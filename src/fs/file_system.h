// SPDX-License-Identifier: MIT
// The narrow read-side file-system interface the file tools go through, so a
// backend (the native one here, a shell one later) can slot in with the same
// results: stat, open + pread, directory listing.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/result.h"

namespace hermes {

enum class FileType {
  kRegular,
  kDirectory,
  kFifo,
  kSocket,
  kCharDevice,
  kBlockDevice,
  kSymlink,
  kOther
};

struct FileInfo {
  FileType type = FileType::kOther;
  uint64_t size = 0;
  uint64_t dev = 0;
  uint64_t ino = 0;
  int64_t mtime_ns = 0;
  int64_t ctime_ns = 0;
  bool operator==(const FileInfo&) const = default;
};

// An open file for positional reads. Not thread-safe.
class ReadableFile {
 public:
  virtual ~ReadableFile() = default;
  // Up to `size` bytes at `offset`; 0 at end of file.
  virtual Result<size_t> pread(char* buffer, size_t size, uint64_t offset) = 0;
  // The open file's current metadata.
  virtual Result<FileInfo> info() = 0;
};

// Thread-safe.
class FileSystem {
 public:
  virtual ~FileSystem() = default;
  // Metadata following symlinks (`stat`), or of the link itself (`lstat`).
  virtual Result<FileInfo> stat(const std::string& path) const = 0;
  virtual Result<FileInfo> lstat(const std::string& path) const = 0;
  // Opens for reading without blocking on FIFOs and without becoming the
  // controlling terminal.
  virtual Result<std::unique_ptr<ReadableFile>> open_read(const std::string& path) const = 0;
  // Entry names of a directory (no `.`/`..`), unsorted.
  virtual Result<std::vector<std::string>> list_dir(const std::string& path) const = 0;
  // The target of a symlink.
  virtual Result<std::string> read_link(const std::string& path) const = 0;
};

// The local backend: system calls, no shell.
const FileSystem& native_file_system();

}  // namespace hermes
