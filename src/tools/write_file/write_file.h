// SPDX-License-Identifier: MIT
// write_file: its typed arguments and outcomes, and the handler that runs
// the guards of docs/tools/write_file.md and writes through the write
// pipeline. The JSON shapes live in write_file_json.cc.
#pragma once

#include "core/result.h"
#include "registry/tool.h"
#include "tools/write_pipeline/lint.h"

#include <cstddef>
#include <string>
#include <variant>

namespace hermes::registry {
class Registry;
}  // namespace hermes::registry

namespace hermes::write_file {

struct WriteFileParams {
  std::string path;     // never empty
  std::string content;  // exactly what the model sent ("" for an empty file)
  bool cross_profile = false;
};

// The file was written (and, when `verified`, its hash checked on disk).
struct WriteFileWritten {
  size_t bytes_written = 0;
  bool dirs_created = false;  // the path named a directory (mkdir -p ran)
  bool verified = false;
  write_pipeline::LintReport lint;
  std::string resolved_path;  // the real path written (a symlink's target)
  std::string absolute_path;  // the path as resolved, links kept (`files_modified`)
  std::string hint;           // the rewrite nudge, or empty
  std::string warning;        // outside the workspace, or empty
};

// An overwrite refused because this session has not seen the file whole
// (kConflict); nothing was written.
struct WriteFileStale {
  Error error;
  std::string given;
  std::string resolved_path;
};

using WriteFileOutput = std::variant<WriteFileWritten, WriteFileStale>;

// Runs write_file: argument-level guards, the path guards shared with patch,
// the stale-overwrite blocker, then prepare + commit under the path lock.
Result<WriteFileOutput> write_file(const WriteFileParams& params, registry::CallContext& ctx);
// The stale refusal's error, or nullptr for a write.
const Error* write_file_failure(const WriteFileOutput& output);

void register_write_file(registry::Registry& registry);

}  // namespace hermes::write_file
