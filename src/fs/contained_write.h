// SPDX-License-Identifier: MIT
// atomic_write beneath a workspace root: what the file tools' writes use.
// The temp file is an unnamed O_TMPFILE in the target's directory where the
// file system allows it (a new file is linked in with one linkat, an
// existing one renamed over from a temp name), else a named
// `.hermes-tmp.<pid>.<random>` file beside the target. Every step is
// relative to the directory fd a Beneath walk reached.
#pragma once

#include "fs/atomic_write.h"
#include "fs/beneath.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace hermes::fs {

enum class TempKind { kUnnamed, kNamed };  // kNamed: the fallback, forced (tests)

// Replaces the content of `real_path` (symlink-free, beneath `root`) with
// `bytes`; a link met on the way is refused, missing parents are created.
// Modes, owner and failure behaviour as atomic_write. Temp files of writers
// that died (a dead pid in the name) are removed from the directory first.
Result<AtomicWriteOutcome> atomic_write_beneath(const Beneath& root, const std::string& real_path,
                                                std::string_view bytes,
                                                const AtomicWriteOptions& options = {},
                                                TempKind temp = TempKind::kUnnamed);

// The whole content of an open file, from offset 0; kTooLarge once it
// passes `max_bytes` (a file that grew after its size was checked).
Result<std::string> read_whole_fd(int fd, const std::string& path, uint64_t max_bytes = UINT64_MAX);
// Whether the file behind `fd` holds exactly `bytes`, read from offset 0.
Result<bool> fd_holds(int fd, const std::string& path, std::string_view bytes);

// The `/` walk, shared by every caller without a workspace root.
const Beneath& filesystem_root();

}  // namespace hermes::fs
