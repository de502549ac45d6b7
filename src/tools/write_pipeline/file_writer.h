// SPDX-License-Identifier: MIT
// The file-ops write pipeline of docs/tools/write_file.md, split in two so V4A can
// check every file before writing any: prepare (denylist, lone surrogates,
// syntax gate, CRLF/BOM shims) and commit (atomic write, hash verification).
#pragma once

#include "core/result.h"
#include "fs/atomic_write.h"
#include "fs/file_system.h"

#include <optional>
#include <string>
#include <string_view>

namespace hermes::write_pipeline {

struct WriteShims {
  // Rewrite every line ending to CRLF when the old file's head has one.
  // patch keeps per-line endings itself and turns this off.
  bool crlf = true;
  // Restore a UTF-8 BOM the old file had and the content lacks.
  bool bom = true;
};

struct PreparedWrite {
  const fs::FileSystem* fs = nullptr;      // where to write (not owned)
  std::string path;                        // the real path to write
  std::string bytes;                       // exactly what lands on disk
  std::optional<std::string> old_content;  // set when the file existed
};

// The pipeline's steps 1–4. `old_content` is the file's current bytes when the caller
// already has them (nullopt: read from `fs`; a missing file is a new file).
// Errors carry the contract's refusal message.
Result<PreparedWrite> prepare_write(const std::string& real_path, std::string_view content,
                                    const std::string& hermes_home, WriteShims shims,
                                    std::optional<std::string> old_content = std::nullopt,
                                    const fs::FileSystem& fs = fs::native_file_system());

struct CommittedWrite {
  size_t bytes_written = 0;
  bool verified = false;  // false only when the hash could not be taken
  fs::AtomicWriteOutcome outcome;
};

// Steps 5–6 on the prepared file system: `Failed to write file:
// <cause>` (old file intact, no temp left) or `Post-write verification
// failed for <path>: …`.
Result<CommittedWrite> commit_write(const PreparedWrite& write,
                                    const fs::AtomicWriteOptions& options = {});

}  // namespace hermes::write_pipeline
