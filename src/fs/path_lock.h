// SPDX-License-Identifier: MIT
// Process-wide per-path writer locks shared by write_file and patch, so two
// calls on one file never interleave their read-modify-write.
#pragma once

#include <string>
#include <vector>

namespace hermes {

// Holds the writer lock of every path in `paths` until destroyed. Paths are
// de-duplicated and taken in sorted order, so two holders of overlapping sets
// cannot deadlock. Thread-safe; not reentrant for the same path.
class PathLocks {
 public:
  explicit PathLocks(std::vector<std::string> paths);
  ~PathLocks();
  PathLocks(const PathLocks&) = delete;
  PathLocks& operator=(const PathLocks&) = delete;

 private:
  std::vector<std::string> paths_;  // sorted, unique, all held
};

}  // namespace hermes
