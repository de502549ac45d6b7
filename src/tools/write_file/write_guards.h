// SPDX-License-Identifier: MIT
// write_file's own guards (file-tools.md §2.2 items 6–7): refusing read_file
// display text as content, and the stale-overwrite blocker.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "fs/file_system.h"

namespace hermes {

class ReadTracker;

// The refusal when `content` is read_file output rather than file text: the
// dedup notice, or mostly `N|` lines numbered consecutively.
std::optional<std::string> display_text_error(std::string_view content);

// The reason an overwrite of the existing file `real_path` is stale for this
// session (no whole-file read of its current version), or nullopt when the
// file is new or was seen whole. The file is looked at on `fs`.
std::optional<std::string> stale_overwrite_reason(const ReadTracker& tracker,
                                                  const std::string& real_path,
                                                  const FileSystem& fs);

}  // namespace hermes
