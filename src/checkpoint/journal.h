// SPDX-License-Identifier: MIT
// One workspace's checkpoints, in its folder of the store
// (`<store>/workspaces/<sha256(root)[:16]>/`): the append-only `journal`
// (a checkpoint's header when its call starts, each path's state before it
// changed, the state the call left, and its end), the `index` of the tree
// for shell calls, and the `lock` every session using the workspace takes
// around a read-modify-write. Callers hold the lock (`lock()`) around every
// other member.
#pragma once

#include "core/result.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "checkpoint/index_file.h"
#include "checkpoint/path_state.h"
#include "checkpoint/store_files.h"

namespace hermes::checkpoint {

// What a checkpoint covers.
enum class Coverage {
  kPaths,        // a tool edit: the paths the tool names
  kShell,        // a shell call: every change in the workspace, by scan
  kNotCaptured,  // a shell call on a backend whose changes are not captured
  kTooLarge      // a shell call in a workspace over the scan cap: not captured
};

struct Checkpoint {
  uint64_t id = 0;
  int64_t created = 0;  // unix seconds
  std::string tool;
  std::string summary;
  std::string session;
  Coverage coverage = Coverage::kPaths;
  std::map<std::string, PathState> before;  // relative path -> state before the call
  std::map<std::string, PathState> after;   // the paths the call changed -> what it left
  bool finished = false;
};

class Journal {
 public:
  explicit Journal(std::string dir) : dir_(std::move(dir)) {}

  const std::string& dir() const { return dir_; }
  Result<FileLock> lock() const { return FileLock::acquire(dir_ + "/lock"); }

  // Every checkpoint, oldest first.
  Result<std::vector<Checkpoint>> load() const;
  // A new id (one more than any before).
  Result<uint64_t> next_id() const;
  // The header of `checkpoint` and its `before` states.
  Status begin(const Checkpoint& checkpoint) const;
  // The states of what checkpoint `id`'s call changed, and its end.
  Status finish(uint64_t id, const std::map<std::string, PathState>& before,
                const std::map<std::string, PathState>& after) const;
  // Replaces the journal with `kept` (pruning).
  Status rewrite(const std::vector<Checkpoint>& kept) const;

  // The tree index for shell calls.
  IndexFile index() const { return IndexFile(dir_ + "/index"); }

 private:
  std::string dir_;
};

// The journal lines of `checkpoint`, whole.
std::string checkpoint_text(const Checkpoint& checkpoint);

}  // namespace hermes::checkpoint
