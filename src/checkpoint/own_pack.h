// SPDX-License-Identifier: MIT
// A workspace's own objects (checkpoint/workspace_objects.h) in one file,
// `own.pack`: each edit of a held file adds a delta of about the bytes it
// changed, and a file per delta would take a whole block of the disk
// (4 KB here) for a hundred bytes. Records are appended, under the
// workspace's lock:
//   H<hash: 32 bytes><length: LEB128><object>
//   B<offset: LEB128><length: LEB128><object>
// `B` names its hash by an earlier record whose object is a delta against
// it: in a chain of reverse deltas each content is the base of the delta
// written just before it, so an edit costs one hash, not two.
// A record cut short by a crash is ignored, and the next append starts
// where it began. Pruning rewrites the file with the live records (a temp
// file renamed over it). The file is read whole on first use: it holds
// deltas only, about a hundred bytes an edit.
#pragma once

#include "core/result.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace hermes::checkpoint {

class OwnPack {
 public:
  explicit OwnPack(std::string path) : path_(std::move(path)) {}

  bool has(const std::string& hash) const;
  // The object's bytes, or NotFound.
  Result<std::string> read(const std::string& hash) const;
  // Adds object `hash` (nothing when it is there already).
  Status append(const std::string& hash, std::string_view object) const;
  std::vector<std::string> hashes() const;
  // The file's size.
  uint64_t bytes() const;
  // Rewrites the file with the records of `live` only.
  Status keep_only(const std::set<std::string>& live) const;

 private:
  struct Record {
    size_t start = 0;   // of the record in `data_`
    size_t offset = 0;  // of the object
    size_t size = 0;
  };
  // Reads the file once; a missing file is an empty pack. Any other failure
  // to read it is kept and returned again: a pack that could not be read
  // is never taken for an empty one (and rewritten or appended over).
  Status load() const;
  // Parses the record at `at` into the maps; false when it is cut short or
  // damaged.
  bool parse_record(size_t& at) const;
  // The record of `object` for `hash`, named by offset when a record in
  // `based_on` (base hash -> record start) is a delta against it.
  static std::string record_of(const std::string& hash, std::string_view object,
                               const std::map<std::string, size_t>& based_on);

  std::string path_;
  mutable bool loaded_ = false;
  mutable Status loaded_status_;
  mutable std::string data_;
  mutable size_t valid_end_ = 0;  // the end of the last whole record
  mutable std::map<std::string, Record> records_;
  mutable std::map<size_t, std::string> base_at_;   // record start -> its delta's base
  mutable std::map<std::string, size_t> based_on_;  // base hash -> a record start
};

}  // namespace hermes::checkpoint
