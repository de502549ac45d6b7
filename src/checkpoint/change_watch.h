// SPDX-License-Identifier: MIT
// The workspace's directories under inotify watch, so that a shell call
// learns from the events since the last look where the tree may have
// changed, instead of walking all of it (docs/checkpoints.md). An event is
// a hint of where to look, never a state: each entry it names is read
// again. A directory that was created, moved in or out, or removed is
// named as a subtree to walk whole, which also covers what its own events
// named under an older path. Lost events (the queue overflowed, the root
// itself moved) say that only a whole walk is exact.
#pragma once

#include "core/result.h"
#include "proc/unique_fd.h"

#include <set>
#include <string>
#include <unordered_map>

namespace hermes::checkpoint {

struct WatchedChanges {
  std::set<std::string> entries;   // relative paths to read again
  std::set<std::string> subtrees;  // relative directories to walk whole
  bool lost = false;               // events were lost: walk everything
};

class ChangeWatch {
 public:
  // An inotify instance; kUnavailable when the kernel or its limits refuse.
  static Result<ChangeWatch> open();

  // Watches the directory open as `dir`, `rel` beneath the root ("" for the
  // root). Watching one directory again only renames it (a move).
  Status add(int dir, const std::string& rel);
  // What the events queued since the last call name.
  WatchedChanges take();

 private:
  explicit ChangeWatch(proc::UniqueFd fd) : fd_(std::move(fd)) {}
  void note(int wd, uint32_t mask, const char* name, WatchedChanges& out);

  proc::UniqueFd fd_;
  std::unordered_map<int, std::string> dirs_;  // watch descriptor -> relative path
};

}  // namespace hermes::checkpoint
