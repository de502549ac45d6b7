// SPDX-License-Identifier: MIT
// The in-memory view of the files a V4A patch touches: read once from disk,
// then changed by the dry run. Nothing here writes.
#pragma once

#include "core/result.h"
#include "fs/file_system.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hermes::v4a {

struct FileState {
  bool exists = false;
  bool regular = true;     // false for a directory or other non-file
  std::string unreadable;  // why an existing regular file was not read (too large, I/O)
  std::string content;
  unsigned mode = 0;  // permission bits of an existing file
};

class Overlay {
 public:
  // Files are read from `fs` (which must outlive the overlay).
  explicit Overlay(const fs::FileSystem& fs) : fs_(fs) {}

  // The current (possibly dry-run-changed) state of `path`.
  const FileState& get(const std::string& path);
  // The state on disk before the patch.
  const FileState& original(const std::string& path);
  // `mode` (when not 0) is what a newly created file should get: a moved
  // file keeps its permission bits.
  void put(const std::string& path, std::string content, unsigned mode = 0);
  void remove(const std::string& path);
  // Paths whose final state differs from disk, in first-touch order.
  std::vector<std::string> changed() const;

 private:
  void load(const std::string& path);
  const fs::FileSystem& fs_;
  std::map<std::string, FileState> disk_;
  std::map<std::string, FileState> now_;
  std::vector<std::string> order_;
};

}  // namespace hermes::v4a
