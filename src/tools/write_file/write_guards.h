// SPDX-License-Identifier: MIT
// write_file's own guards (docs/tools/write_file.md): refusing read_file
// display text as content, a target that is not a file, and the
// stale-overwrite blocker.
#pragma once

#include "core/result.h"
#include "fs/file_system.h"

#include <string>
#include <string_view>

namespace hermes::file_common {
class ReadTracker;
}  // namespace hermes::file_common

namespace hermes::write_file {

// kInvalidArgument when `content` is read_file output rather than file text:
// the dedup notice, or mostly `N|` lines numbered consecutively.
Status check_not_display_text(std::string_view content);

// kInvalidArgument when `given` (the path as the caller wrote it) names a
// directory, by a trailing `/` or because `real_path` is one, or when the
// existing target is a FIFO, socket or device: write_file writes regular
// files only, never a file named after the directory or over a special file.
Status check_file_target(const std::string& given, const std::string& real_path,
                         const fs::FileSystem& fs);

// kConflict, with the reason as message, when an overwrite of the existing
// file `real_path` is stale for this session (no whole-file read of its
// current version); OK when the file is new or was seen whole. The file is
// looked at on `fs`.
Status check_not_stale(const file_common::ReadTracker& tracker, const std::string& real_path,
                       const fs::FileSystem& fs);

}  // namespace hermes::write_file
