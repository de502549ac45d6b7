// SPDX-License-Identifier: MIT
// read_state and apply_state for a workspace whose files are not this
// host's (an ssh target, a container's own files): the same states, read
// and written through the backend's fs::FileSystem, the one the file tools
// use there. No clones, and no hold: nothing of the target is left to be
// read back later. Reads never use metadata the file system remembers
// (read_entry, real_path), so one instance may serve a call from begin to
// finish, or a restore asked twice.
#pragma once

#include "core/result.h"
#include "fs/file_system.h"

#include <string>

#include "checkpoint/path_state.h"
#include "checkpoint/workspace_objects.h"

namespace hermes::checkpoint {

// The state of `path` on the target, never following a link, in one
// fs::FileSystem::read_entry. A file larger than what the file system reads
// whole (fs::kMaxWholeFileBytes), or one it may not read, is kept by its
// metadata.
Result<PathState> read_state_on(const fs::FileSystem& files, const std::string& path,
                                const Capture& how);

// apply_state on the target: a file's bytes by the file system's atomic
// write, a link removed and made again (not in one step, as the native
// rename is), a directory made or removed, then the permission bits.
Status apply_state_on(const fs::FileSystem& files, const std::string& path, const PathState& have,
                      const PathState& want, const WorkspaceObjects& objects);

}  // namespace hermes::checkpoint
