// SPDX-License-Identifier: MIT
// Puts one path back into a recorded state, beneath the workspace root's fd
// (fs/beneath.h): a file's bytes through atomic_write_beneath (a temp file
// renamed over it, so a kill leaves the old file or the new one; no fsync,
// docs/checkpoints.md), a link by
// a temp link renamed over it, a directory made or removed (when empty),
// then the permission bits.
#pragma once

#include "core/result.h"
#include "fs/beneath.h"

#include <string>

#include "checkpoint/blob_store.h"
#include "checkpoint/path_state.h"

namespace hermes::checkpoint {

// Turns `real_path`, now `have`, into `want` (never unrecoverable).
Status apply_state(const fs::Beneath& root, const std::string& real_path, const PathState& have,
                   const PathState& want, const BlobStore& store);

}  // namespace hermes::checkpoint
