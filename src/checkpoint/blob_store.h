// SPDX-License-Identifier: MIT
// The content-addressed store of the checkpoints (docs/checkpoints.md): one
// object per distinct content, named by the SHA-256 of that content, under
// `<store>/objects/`. An object is either the bytes themselves or a delta
// against another object (the common prefix and suffix kept by reference,
// only the middle bytes stored), so a one-line edit of a large file costs
// about one line. Where the file system shares blocks between files
// (reflinks: btrfs, XFS), a file's content is stored as a clone of the file
// (`<hash>.raw`, no header): its blocks are shared, not copied. Objects are
// written atomically and never changed; concurrent writers of one content
// write the same bytes. Thread-safe.
#pragma once

#include "core/result.h"

#include <cstdint>
#include <functional>
#include <optional>
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
  // Stores the regular file open at `fd` as a clone of it (no bytes
  // copied), hashing the clone, so a file written meanwhile is kept whole at
  // one moment. nullopt, nothing stored, when the file is under
  // kCloneMinBytes, the store cannot clone from it (another file system, no
  // reflinks: remembered, so it is tried once) or the clone is over
  // `max_bytes`: the caller copies instead.
  struct Cloned {
    std::string hash;
    uint64_t size = 0;
  };
  std::optional<Cloned> put_clone(int fd, uint64_t max_bytes) const;
  // Smaller files are copied: a copy costs them a block or a few, a clone
  // about four times a small copy's time (docs/checkpoints.md).
  static constexpr uint64_t kCloneMinBytes = 64u << 10;
  // The content of object `hash`, every delta applied.
  Result<std::string> get(const std::string& hash) const;
  bool has(const std::string& hash) const;
  // The object `hash`'s delta base, or "" (a full object or a missing one).
  std::string base_of(const std::string& hash) const;
  // The number of deltas between object `hash` and its full object.
  int depth_of(const std::string& hash) const;
  // Where object `hash` lives (a clone: at `raw_path_of`).
  std::string path_of(const std::string& hash) const;
  std::string raw_path_of(const std::string& hash) const {
    return path_of(hash) + std::string(kRawSuffix);
  }
  static constexpr std::string_view kRawSuffix = ".raw";
  // The bytes of object `hash` as a header and body: a clone reads as a
  // full object.
  Result<std::string> read_object(const std::string& hash) const;

 private:
  std::string dir_;
};

// Longest chain of deltas before an object is stored whole again: bounds
// the work of a `get` (each link copies the file once).
inline constexpr int kMaxDeltaDepth = 1000;

// The pieces a workspace's own objects (checkpoint/workspace_objects.h)
// share with the store's.
//
// The bytes of the object file of `hash`, wherever it lives.
using ObjectReader = std::function<Result<std::string>(const std::string& hash)>;
// The content of object `hash`: its chain read through `read`, every delta
// applied.
Result<std::string> assemble(const std::string& hash, const ObjectReader& read);
// The object file of `bytes` as a delta against `base` at `depth`, or ""
// when the two share too little for a delta to pay.
std::string delta_object(std::string_view bytes, const BlobStore::Base& base, int depth);
// The object file of `bytes` stored whole.
std::string full_object(std::string_view bytes);
// The delta base named by the object file at `path`, or "" (a full object,
// a missing or damaged one).
std::string base_in_file(const std::string& path, const std::string& hash);
// The same of an object's bytes.
std::string base_in_object(std::string_view object, const std::string& hash);
// A SHA-256 as raw bytes.
inline constexpr size_t kHashBytes = 32;
// Unsigned LEB128: seven bits a byte, low first.
void append_varint(std::string& out, uint64_t value);
// Reads one at `at`, moving it past; false when cut short.
bool read_varint(std::string_view bytes, size_t& at, uint64_t& out);

}  // namespace hermes::checkpoint
