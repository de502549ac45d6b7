// SPDX-License-Identifier: MIT
// The content-addressed store of the checkpoints (docs/checkpoints.md): one
// object per distinct content, named by the SHA-256 of that content, under
// `<store>/objects/`. An object is either the bytes themselves or a delta
// against another object (the common prefix and suffix kept by reference,
// only the middle bytes stored), so a one-line edit of a large file costs
// about one line. Objects are written atomically and never changed;
// concurrent writers of one content write the same bytes. Thread-safe.
#pragma once

#include "core/result.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace hermes::checkpoint {

class BlobStore {
 public:
  explicit BlobStore(std::string dir) : dir_(std::move(dir)) {}

  const std::string& dir() const { return dir_; }

  // An object already stored and its content, which a caller has at hand
  // (the file before an edit), so a delta needs no object read.
  struct Base {
    std::string hash;
    std::string_view content;
  };
  // Stores `bytes` (a delta against `base` when given and the two share
  // most of their bytes) and returns its hash.
  Result<std::string> put(std::string_view bytes, const Base* base = nullptr) const;
  // The content of object `hash`, every delta applied.
  Result<std::string> get(const std::string& hash) const;
  bool has(const std::string& hash) const;
  // The object `hash`'s delta base, or "" (a full object or a missing one).
  std::string base_of(const std::string& hash) const;
  // The number of deltas between object `hash` and its full object.
  int depth_of(const std::string& hash) const;
  // Where object `hash` lives.
  std::string path_of(const std::string& hash) const;

 private:
  std::string dir_;
};

// Longest chain of deltas before an object is stored whole again: bounds
// the work of a `get` (each link copies the file once).
inline constexpr int kMaxDeltaDepth = 1000;

}  // namespace hermes::checkpoint
