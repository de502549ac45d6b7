// SPDX-License-Identifier: MIT
// Writer locks shared by write_file and patch across threads and processes,
// so two calls on one file — in one server or in eight — never interleave
// their read-modify-write.
#pragma once

#include "core/result.h"
#include "proc/unique_fd.h"

#include <chrono>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace hermes::fs {

// How long a writer waits for another holder before giving up.
inline constexpr std::chrono::milliseconds kLockPatience{30000};

// Holds the writer lock of every path in `paths` until destroyed: an open
// file description lock (F_OFD_SETLK) on one byte per path, at an offset
// hashed from the path, in this user's lock file
// ($XDG_RUNTIME_DIR/hermes-tools.locks, else /tmp/hermes-tools-<uid>.locks).
// OFD locks conflict between descriptions, so threads of one process
// exclude each other as processes do, and the kernel drops them when a
// holder dies. Offsets are taken in sorted order, so holders of
// overlapping sets cannot deadlock. Not reentrant for the same path.
class PathLocks {
 public:
  // Waits while another holder has one of the locks, polling, so that a
  // process of this user that holds a byte forever (the lock file is
  // writable by every process of the user) cannot hang the call:
  // kCancelled once `stop` is requested, kUnavailable after `patience`;
  // either way nothing is held and nothing was written.
  static Result<PathLocks> take(const std::vector<std::string>& paths, std::stop_token stop,
                                std::chrono::milliseconds patience = kLockPatience);

  // One attempt at the writer lock of `path`, for a call that must not
  // wait (a brief call on an event loop): nullopt when another holder has
  // it now, or when no lock file is usable (then every path shares one
  // lock); such a call goes where it may wait instead. Holding the lock
  // from this check on leaves no gap in which another writer could take it.
  static std::optional<PathLocks> try_take(const std::string& path);

  PathLocks(PathLocks&&) = default;
  PathLocks& operator=(PathLocks&&) = default;

  // The lock file in use (tests).
  static std::string lock_file();

 private:
  PathLocks() = default;

  proc::UniqueFd fd_;  // closing it releases every lock
  // Without a usable lock file: one process-wide lock for every path.
  std::unique_lock<std::mutex> fallback_;
};

}  // namespace hermes::fs
