// SPDX-License-Identifier: MIT
// patch mode "replace" (file-tools.md §3.2): read, fuzzy-replace, write
// through the §2.3 pipeline with the file's own line endings and BOM.
#pragma once

#include <string>
#include <variant>

#include "core/paths.h"
#include "tools/file_common/file_access.h"
#include "tools/patch/patch_result.h"

namespace hermes {

struct ReplaceArgs {
  std::string old_text;
  std::string new_text;
  bool replace_all = false;
};

// Runs under the caller's path lock, on the call's file system. `hermes_home`
// locates the denylist.
std::variant<PatchSuccess, PatchFailure> run_replace(const ResolvedPath& path, const ReplaceArgs& args,
                                                     const std::string& hermes_home,
                                                     const FileAccess& access);

}  // namespace hermes
