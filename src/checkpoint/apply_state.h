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

#include "checkpoint/path_state.h"
#include "checkpoint/workspace_objects.h"

namespace hermes::checkpoint {

// Why `want` cannot be put back over `have` (an ignored folder on either
// side, content not kept); ok when it can.
Status check_restorable(const PathState& have, const PathState& want);

// Turns `real_path`, now `have`, into `want` (never unrecoverable). A
// file's bytes are written in `stage`, a directory of the store (-1: none),
// and renamed into place when it is on the workspace's file system, so a
// killed restore leaves no temp file in the workspace; else beside the
// file (atomic_write_beneath). A file kept as a clone is cloned back where
// the file system allows.
Status apply_state(const fs::Beneath& root, const std::string& real_path, const PathState& have,
                   const PathState& want, const WorkspaceObjects& store, int stage = -1);

}  // namespace hermes::checkpoint
