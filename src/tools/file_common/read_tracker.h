// SPDX-License-Identifier: MIT
// What this session has read and written, per real path: the read stamps
// behind write_file's stale-overwrite blocker (docs/tools/write_file.md) and
// the invalidation hook write_file/patch call after changing a file.
// Thread-safe.
#pragma once

#include "fs/file_system.h"
#include "registry/session.h"

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace hermes::file_common {

// Identity of one version of a file (stat fields).
struct FileVersion {
  uint64_t dev = 0;
  uint64_t ino = 0;
  uint64_t size = 0;
  int64_t mtime_ns = 0;
  int64_t ctime_ns = 0;
  bool operator==(const FileVersion&) const = default;
};

// The current version of `real_path` on `fs`, or false when it cannot be
// stat'ed.
bool stat_version(const fs::FileSystem& fs, const std::string& real_path, FileVersion& out);

// Whether a write gives the session a whole-file baseline of the result:
// write_file's own content does; patch's does not (docs/tools/write_file.md:
// write after patch needs a re-read).
enum class Baseline { kEarned, kNotEarned };

// What one read showed: lines [first, last] of a file of `total` lines;
// `exact` when every shown line is the file's own text (not redacted, not
// clamped, not cut by the character budget).
struct ReadSpan {
  int64_t first = 1;
  int64_t last = 0;
  int64_t total = 0;
  bool exact = false;
  // Every line, however many (a baseline set without a read).
  static ReadSpan whole() { return {1, INT64_MAX, 0, true}; }
  static ReadSpan inexact() { return {}; }
};

class ReadTracker : public registry::SessionState {
 public:
  // read_file served `span` of `real_path` at `version`. The session has
  // seen the whole file once exact spans of one version cover every line
  // contiguously from line 1, in one read or in consecutive pages.
  void record_read(const std::string& real_path, const FileVersion& version, const ReadSpan& span);
  // write_file/patch wrote `real_path`. With kEarned (write_file) the
  // session now knows its content; with kNotEarned (patch) any earlier stamp
  // is dropped. Either way every per-path read cache of the path is dropped
  // through the listeners.
  void record_write(const std::string& real_path, const FileVersion& version,
                    Baseline baseline = Baseline::kEarned);
  // True when the session has seen the whole file at exactly `current`.
  bool has_seen_whole(const std::string& real_path, const FileVersion& current) const;
  // True when the session has read any part of the file at any version.
  bool has_read(const std::string& real_path) const;
  // True when the session read (or wrote) the file and it has changed since:
  // its version is no longer `current`.
  bool changed_since_read(const std::string& real_path, const FileVersion& current) const;

  // Per-path caches (dedup stubs, negative cache) register here to be told
  // when a path is written, until they remove the id this returns. Listeners
  // run under the tracker's lock, so a removal waits for a call in progress;
  // they must not call back into the tracker.
  uint64_t add_write_listener(std::function<void(const std::string&)> listener);
  void remove_write_listener(uint64_t id);

 private:
  struct Stamp {
    FileVersion version;
    int64_t seen_through = 0;  // lines 1..seen_through seen exactly
    bool whole_file = false;
  };
  mutable std::mutex mu_;
  std::map<std::string, Stamp> stamps_;                                    // mu_
  std::map<uint64_t, std::function<void(const std::string&)>> listeners_;  // mu_
  uint64_t next_listener_ = 0;                                             // mu_
};

}  // namespace hermes::file_common
