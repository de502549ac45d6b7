// SPDX-License-Identifier: MIT
// patch mode "replace" (docs/tools/patch.md): read, fuzzy-replace, write
// through the write pipeline (docs/tools/write_file.md) with the file's own line endings and BOM.
#pragma once

#include "core/paths.h"
#include "core/result.h"
#include "tools/file_common/file_access.h"
#include "tools/patch/patch_result.h"

#include <string>

namespace hermes::patch {

struct ReplaceArgs {
  std::string old_text;
  std::string new_text;
  bool replace_all = false;
};

// Runs under the caller's path lock, on the call's file system. `hermes_home`
// locates the denylist.
Result<PatchSuccess> run_replace(const ResolvedPath& path, const ReplaceArgs& args,
                                 const std::string& hermes_home,
                                 const file_common::FileAccess& access);

}  // namespace hermes::patch
