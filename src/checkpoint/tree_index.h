// SPDX-License-Identifier: MIT
// The workspace as the last look saw it, for finding what a shell command
// changed: per path its state (content kept in the BlobStore) and the
// metadata that tells, without reading, whether it changed since (size,
// mtime, ctime, inode). Saved per workspace; a refresh walks the tree (or
// the parts a ChangeWatch named) beneath the root's fd, reads only entries
// whose metadata moved, and reports the paths whose state changed. Names in
// `ignored` (and `.git` always) are not entered.
#pragma once

#include "core/result.h"

#include <cstdint>
#include <functional>
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

// Where a refresh looks: the whole tree, or only where a ChangeWatch's
// events point.
struct ScanScope {
  bool whole = true;
  std::set<std::string> entries;   // read again (a directory: its own state only)
  std::set<std::string> subtrees;  // walked whole
};

struct ScanOptions {
  const BlobStore* store = nullptr;
  uint64_t max_bytes = 0;
  std::set<std::string> ignored;  // directory names not entered
  // More entries than this: kTooLarge (a server started in `/` or a home
  // folder must not copy it all on its first command). 0: no cap.
  uint64_t max_entries = 0;
  // Called with each directory's fd before its entries are read (the root
  // first), so a watch added there misses nothing the walk does not see.
  std::function<Status(int dir, const std::string& rel)> on_dir;
  // False: only the index is brought up to date, `Refresh::changed` stays
  // empty (a baseline look; a whole walk's list is the size of the tree).
  bool report_changes = true;
};

struct IndexChange {
  std::string path;  // relative
  PathState was;
  PathState is;
  Stamp was_stamp;  // what the index had with `was` (zero when it had nothing)
};

struct Refresh {
  std::vector<IndexChange> changed;  // the paths whose state changed, in order
  std::vector<std::string> written;  // a scoped refresh: every entry updated or removed
  bool any_written = false;          // any entry updated or removed (state or stamp)
};

// Brings `index` up to date with the tree beneath `root` (a real,
// symlink-free directory) within `scope`, reading only entries whose stamp
// moved. On error `index` is unchanged.
Result<Refresh> refresh_index(const std::string& root, TreeIndex& index, const ScanScope& scope,
                              const ScanOptions& options);

// The index as text (one line per path; an absent state removes the path
// when read, so lines can be appended), and back into `index`.
std::string index_text(const TreeIndex& index);
std::string index_lines(const TreeIndex& index, const std::vector<std::string>& paths);
Status parse_index(std::string_view text, TreeIndex& index);

}  // namespace hermes::checkpoint
