// SPDX-License-Identifier: MIT
// Writer locks shared by write_file and patch across threads and processes,
// so two calls on one file — in one server or in eight — never interleave
// their read-modify-write.
#pragma once

#include "proc/unique_fd.h"

#include <mutex>
#include <string>
#include <vector>

namespace hermes::fs {

// Holds the writer lock of every path in `paths` until destroyed: an open
// file description lock (F_OFD_SETLKW) on one byte per path, at an offset
// hashed from the path, in this user's lock file
// ($XDG_RUNTIME_DIR/hermes-tools.locks, else /tmp/hermes-tools-<uid>.locks).
// OFD locks conflict between descriptions, so threads of one process
// exclude each other as processes do, and the kernel drops them when a
// holder dies. Offsets are taken in sorted order, so holders of
// overlapping sets cannot deadlock. Not reentrant for the same path.
class PathLocks {
 public:
  explicit PathLocks(std::vector<std::string> paths);
  PathLocks(const PathLocks&) = delete;
  PathLocks& operator=(const PathLocks&) = delete;

  // The lock file in use (tests).
  static std::string lock_file();

 private:
  proc::UniqueFd fd_;  // closing it releases every lock
  // Without a usable lock file: one process-wide lock for every path.
  std::unique_lock<std::mutex> fallback_;
};

}  // namespace hermes::fs
