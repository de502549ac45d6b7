// SPDX-License-Identifier: MIT
// The workspace as the last look saw it, for finding what a shell command
// changed: per path its state (content kept in the BlobStore) and the
// metadata that tells, without reading, whether it changed since (size,
// mtime, ctime, inode). Saved per workspace; a scan walks the tree beneath
// the root's fd, reads only entries whose metadata moved, and reports the
// paths whose state changed. Names in `ignored` (and `.git` always) are not
// entered.
#pragma once

#include "core/result.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "checkpoint/blob_store.h"
#include "checkpoint/path_state.h"

namespace hermes::checkpoint {

struct Stamp {
  uint64_t size = 0;
  int64_t mtime_ns = 0;
  int64_t ctime_ns = 0;
  uint64_t ino = 0;
  uint32_t mode = 0;  // st_mode, type included
  bool operator==(const Stamp&) const = default;
};

struct IndexEntry {
  PathState state;
  Stamp stamp;
};

// Relative path (no leading slash) -> entry; directories included.
using TreeIndex = std::map<std::string, IndexEntry>;

struct ScanOptions {
  const BlobStore* store = nullptr;
  uint64_t max_bytes = 0;
  std::set<std::string> ignored;  // directory names not entered
  // More entries than this: kTooLarge (a server started in `/` or a home
  // folder must not copy it all on its first command). 0: no cap.
  uint64_t max_entries = 0;
};

struct ScanResult {
  TreeIndex index;                   // the tree now
  std::vector<std::string> changed;  // relative paths whose state differs from `before`
};

// Walks `root` (a real, symlink-free directory), reusing `before`'s state
// for every entry whose stamp is unchanged.
Result<ScanResult> scan_tree(const std::string& root, const TreeIndex& before,
                             const ScanOptions& options);

// The index as text and back (one line per path).
std::string index_text(const TreeIndex& index);
Result<TreeIndex> parse_index(std::string_view text);

}  // namespace hermes::checkpoint
