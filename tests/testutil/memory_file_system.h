// SPDX-License-Identifier: MIT
// An in-memory FileSystem for tests: regular files, directories and
// symlinks in a map, with faults injected on demand ("the third write fails
// with ENOSPC"). Tools given it through `Services::files` never touch disk.
// Thread-safe (one mutex).
#pragma once

#include "fs/file_system.h"

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace hermes::testing {

class MemoryFileSystem final : public fs::FileSystem {
 public:
  // The operations a fault can target.
  enum class Op { kStat, kOpen, kRead, kList, kWrite, kRemove };

  // `home` is what `home()` answers (the target's `~`).
  explicit MemoryFileSystem(std::string home = "/home/user");

  // Setup: a file (parents created), a directory, a symlink.
  void add_file(const std::string& path, std::string content, unsigned mode = 0644);
  void add_dir(const std::string& path);
  void add_symlink(const std::string& path, std::string target);
  // The content of a file, or nullopt when there is none.
  std::optional<std::string> content(const std::string& path) const;
  // The `nth` next call of `op` (1 = the very next one) fails with `err`
  // (an errno mapped through Error::FromErrno); the others go through.
  void fail(Op op, int nth, int err);
  // How many calls of `op` were made.
  int calls(Op op) const;

  Result<fs::FileInfo> stat(const std::string& path) const override;
  Result<fs::FileInfo> lstat(const std::string& path) const override;
  Result<std::unique_ptr<fs::ReadableFile>> open_read(const std::string& path) const override;
  Result<std::vector<std::string>> list_dir(const std::string& path) const override;
  Result<std::string> read_link(const std::string& path) const override;
  Result<std::string> read_all(const std::string& path) const override;
  Result<fs::AtomicWriteOutcome> write_atomic(const std::string& path, std::string_view bytes,
                                              const fs::AtomicWriteOptions& options) const override;
  Result<bool> holds(const std::string& path, std::string_view bytes) const override;
  Status remove(const std::string& path) const override;
  Status remove_dir(const std::string& path) const override;
  Status set_mode(const std::string& path, unsigned mode) const override;
  Status make_dir(const std::string& path, unsigned mode) const override;
  Status make_symlink(const std::string& target, const std::string& link) const override;
  Result<std::string> real_path(const std::string& absolute_path) const override;
  std::string home() const override { return home_; }

 private:
  struct Node {
    fs::FileType type = fs::FileType::kRegular;
    std::string data;  // content, or a symlink's target
    unsigned mode = 0644;
    uint64_t ino = 0;
    int64_t mtime_ns = 0;
  };
  class File;

  // Counts a call of `op`; the injected error when this call must fail.
  Status tick(Op op) const;
  // `path` with every symlink resolved (at most 40 hops), missing tail kept.
  std::string resolve(const std::string& path) const;  // mu_ held
  fs::FileInfo info_of(const Node& node) const;
  void make_parents(const std::string& path) const;     // mu_ held
  Node& put(const std::string& path, Node node) const;  // mu_ held
  // mkdir(2) and symlink(2): `node` at `path`, whose parent must exist.
  Status make_node(const std::string& path, Node node, const char* op) const;

  const std::string home_;
  mutable std::mutex mu_;
  // The file system's state; `mutable` because FileSystem's operations are
  // const (a real one changes the disk, not itself).
  mutable std::map<std::string, Node> nodes_;        // mu_
  mutable std::map<Op, int> calls_;                  // mu_
  mutable std::map<Op, std::map<int, int>> faults_;  // mu_: call number -> errno
  mutable uint64_t next_ino_ = 1;                    // mu_
  mutable int64_t clock_ns_ = 1'000'000'000;         // mu_: bumped per change
};

}  // namespace hermes::testing
