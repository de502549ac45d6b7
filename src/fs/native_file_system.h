// SPDX-License-Identifier: MIT
// The local file system under a workspace root.
#pragma once

#include "fs/file_system.h"

#include <string>

namespace hermes::fs {

// System calls, no shell. Paths are real paths (links resolved and judged
// by the caller); each is walked beneath `root` (the workspace root; "/" or
// "" for none) following no symbolic link, so a link that appears after the
// check is refused and nothing outside the root is touched. One instance
// per root for the process's life.
const FileSystem& native_file_system(const std::string& root);

}  // namespace hermes::fs
