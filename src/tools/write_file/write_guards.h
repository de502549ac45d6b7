// SPDX-License-Identifier: MIT
// write_file's own guards (docs/tools/write_file.md): refusing read_file
// display text as content, and the stale-overwrite blocker.
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"
#include "fs/file_system.h"

namespace hermes {

class ReadTracker;

// kInvalidArgument when `content` is read_file output rather than file text:
// the dedup notice, or mostly `N|` lines numbered consecutively.
Status check_not_display_text(std::string_view content);

// kConflict, with the reason as message, when an overwrite of the existing
// file `real_path` is stale for this session (no whole-file read of its
// current version); OK when the file is new or was seen whole. The file is
// looked at on `fs`.
Status check_not_stale(const ReadTracker& tracker, const std::string& real_path,
                       const FileSystem& fs);

}  // namespace hermes
