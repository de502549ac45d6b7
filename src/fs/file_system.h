// SPDX-License-Identifier: MIT
// The file-system interface the file tools go through, so a backend (system
// calls here, shell commands on any other target) slots in with the same
// results: stat, open + pread, listing, atomic writes, removal, real paths.
#pragma once

#include "core/result.h"
#include "fs/atomic_write.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hermes::fs {

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
  unsigned mode = 0;  // permission bits (07777)
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

// The most FileSystem::read_all returns: the edits of write_file and patch
// hold a file whole in memory, several times over.
inline constexpr uint64_t kMaxWholeFileBytes = 64ull << 20;

// "a FIFO (named pipe)", "a socket", "a character device", "a block device",
// "a directory", "a symbolic link", "a special file".
std::string_view file_type_name(FileType type);

// Why `path` (described by `info`) may not be read whole: kInvalidArgument
// "'<path>' is a FIFO (named pipe), not a regular file", or kTooLarge
// "'<path>' is <n> bytes, over the 64 MiB limit for reading a file whole".
Status check_whole_file(const FileInfo& info, const std::string& path);

// One entry as a checkpoint keeps it (FileSystem::read_entry).
struct Entry {
  FileInfo info;                     // of the entry itself (lstat)
  std::string target;                // a symbolic link's
  std::optional<std::string> bytes;  // a regular file's, when small enough and readable
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

  // The whole content of a regular file: kNotFound when missing; refused
  // before reading (check_whole_file) when it is not a regular file or is
  // larger than kMaxWholeFileBytes, so a FIFO never blocks the call and a
  // huge file never fills the memory.
  virtual Result<std::string> read_all(const std::string& path) const = 0;
  // atomic_write's contract (fs/atomic_write.h) on this file system. Only
  // the native one honours `options.write_fn` (a test hook).
  virtual Result<AtomicWriteOutcome> write_atomic(const std::string& path, std::string_view bytes,
                                                  const AtomicWriteOptions& options) const = 0;
  // Whether the file holds exactly `bytes` (the post-write check).
  virtual Result<bool> holds(const std::string& path, std::string_view bytes) const = 0;
  // unlink(2), rmdir(2) and chmod(2) (`mode` in 07777).
  virtual Status remove(const std::string& path) const = 0;
  virtual Status remove_dir(const std::string& path) const = 0;
  virtual Status set_mode(const std::string& path, unsigned mode) const = 0;
  // A directory with exactly the permission bits `mode` (no umask), and
  // symlink(2), `link` naming `target`; both fail when `path` or `link`
  // exists (EEXIST).
  virtual Status make_dir(const std::string& path, unsigned mode) const = 0;
  virtual Status make_symlink(const std::string& target, const std::string& link) const = 0;
  // resolve_links on this file system: every symlink resolved, a dangling
  // one to its target, the missing tail appended.
  virtual Result<std::string> real_path(const std::string& absolute_path) const = 0;
  // The user's home directory on this file system's machine (`~`), for the
  // home-relative write denylist; empty when unknown.
  virtual std::string home() const = 0;

  // lstat, then a link's target, or the bytes of a regular file of at most
  // `max_bytes` (and kMaxWholeFileBytes) that this user may read. One
  // round trip on a remote target (ShellFileSystem); lstat, read_link and
  // read_all here.
  virtual Result<Entry> read_entry(const std::string& path, uint64_t max_bytes) const;
};

// The local backend under `/` (fs/native_file_system.h: under a root).
const FileSystem& native_file_system();

}  // namespace hermes::fs
