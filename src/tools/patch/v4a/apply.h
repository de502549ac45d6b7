// SPDX-License-Identifier: MIT
// V4A validation and transactional apply (docs/tools/patch.md):
// every operation is dry-run over an overlay first, every problem is listed,
// and only a fully valid patch is written; if a write then fails, every file
// already changed, created or deleted is put back.
#pragma once

#include "core/result.h"
#include "fs/atomic_write.h"
#include "fs/file_system.h"
#include "tools/patch/patch_result.h"
#include "tools/patch/v4a/parser.h"

#include <stop_token>
#include <string>
#include <vector>

namespace hermes::v4a {

// Operations whose paths are already resolved (absolute, real) by the tool.
struct ApplyRequest {
  std::vector<FileOp> ops;
  std::string hermes_home;
  fs::AtomicWriteOptions write_options;                  // tests inject write failures here
  const fs::FileSystem* fs = &fs::native_file_system();  // where the files are (not owned)
  bool on_host = true;   // the files are this host's (lint_delta's `on_host`)
  std::stop_token stop;  // the call's cancellation, for the linters
};

Result<patch::PatchSuccess> apply_patch(const ApplyRequest& request);

}  // namespace hermes::v4a
