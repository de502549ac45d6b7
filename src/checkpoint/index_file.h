// SPDX-License-Identifier: MIT
// The tree index on disk (`<workspace folder>/index`): a header line naming
// the file's generation, new at each whole rewrite, then one line per
// entry. Between rewrites a shell call appends the lines of what it
// changed, so a session keeping a copy in memory reads only what was
// appended since (a 100,000-entry index is 17 MB and costs more to parse
// than walking the tree, docs/checkpoints.md). A later line for a path
// replaces the earlier; an absent state removes it. The caller holds the
// workspace's lock.
#pragma once

#include "core/result.h"

#include <cstdint>
#include <string>
#include <vector>

#include "checkpoint/tree_index.h"

namespace hermes::checkpoint {

// A session's copy of the file, and how much of it the copy has read.
struct IndexCopy {
  std::string generation;    // "" before the first read of a file that exists
  uint64_t read_bytes = 0;   // the file's bytes the copy reflects
  uint64_t whole_bytes = 0;  // the size of the last whole rewrite
  TreeIndex index;
};

class IndexFile {
 public:
  explicit IndexFile(std::string path) : path_(std::move(path)) {}

  // Brings `copy` up to date: the appended lines only, when the file is the
  // generation the copy read. A missing or damaged file reads as empty,
  // so the next look walks the whole tree and rewrites it.
  Status read(IndexCopy& copy) const;
  // Writes `copy.index` whole, as a new generation.
  Status rewrite(IndexCopy& copy) const;
  // Appends the lines of `paths` (their entries in `copy.index`, absent
  // ones removed); rewrites instead once appended lines outweigh the rest.
  Status append(IndexCopy& copy, const std::vector<std::string>& paths) const;

 private:
  std::string path_;
};

}  // namespace hermes::checkpoint
