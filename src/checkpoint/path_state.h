// SPDX-License-Identifier: MIT
// What one path of the workspace was at one moment, as a checkpoint keeps
// it: absent, a directory, a symbolic link (its target) or a file (its
// content's object in the BlobStore, or only its size and time when the file
// is over the size cap), with its permission bits. A directory the shell
// scan does not enter (`checkpoints.ignore`: build output, dependencies) is
// kept by its metadata only: that it is there, and its mode.
#pragma once

#include "core/result.h"
#include "fs/beneath.h"

#include <sys/stat.h>

#include <cstdint>
#include <string>

#include "checkpoint/blob_store.h"

namespace hermes::checkpoint {

enum class Kind { kAbsent, kFile, kDir, kSymlink, kOther, kIgnoredDir };

struct PathState {
  Kind kind = Kind::kAbsent;
  uint32_t mode = 0;   // permission bits (07777)
  std::string blob;    // kFile: the content's hash; "" when over the cap (not kept)
  std::string target;  // kSymlink
  uint64_t size = 0;   // kFile
  int64_t mtime_ns = 0;

  // Same content, kind, mode and target: what restore and the hand-edit
  // check compare (a file over the cap by size and time).
  bool same_as(const PathState& other) const;
  // A file whose content was not kept (over the cap), an ignored
  // directory, or a device/fifo.
  bool unrecoverable() const {
    return kind == Kind::kOther || kind == Kind::kIgnoredDir ||
           (kind == Kind::kFile && blob.empty());
  }
};

// How a file's content is read.
struct Capture {
  const BlobStore* store = nullptr;       // nullptr: hash only, keep nothing
  uint64_t max_bytes = 0;                 // larger files: size and time only
  const BlobStore::Base* base = nullptr;  // delta base for the store
  std::string* content = nullptr;         // set: receives the bytes read
};

// The state of `real_path` (beneath `root`, never following a link).
Result<PathState> read_state(const fs::Beneath& root, const std::string& real_path,
                             const Capture& how);

// The kind, mode, size and time of an lstat result (no content, no target).
PathState state_of_stat(const struct ::stat& st);

// One-word names for the journal and for `list`.
const char* kind_name(Kind kind);
Kind kind_from_name(std::string_view name);

}  // namespace hermes::checkpoint
