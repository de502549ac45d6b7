// SPDX-License-Identifier: MIT
// The lint object as it appears in write_file and patch results (docs/tools/write_file.md).
#pragma once

#include "fs/path_lock.h"
#include "json/json.h"
#include "registry/output_schema.h"
#include "registry/tool.h"
#include "tools/write_pipeline/lint.h"

namespace hermes::write_pipeline {

inline Json lint_json(const LintReport& lint) {
  Json out = {{"status", lint.status}};
  if (lint.status != "skipped") out["output"] = lint.output;
  if (!lint.message.empty()) out["message"] = lint.message;
  return out;
}

// The schema of `lint_json`'s object.
inline Json lint_shape() {
  return registry::object_shape({
      registry::key("status", registry::string_type()),
      registry::optional_key("output", registry::string_type()),
      registry::optional_key("message", registry::string_type()),
  });
}

// The `brief` predicate of the writing tools: the file at `args["path"]`,
// an absolute path, is one that no linter process checks and whose writer
// lock this check can take now; the call keeps it (a brief call must not
// wait for it, then or later).
inline bool writes_briefly(const Json& args, registry::BriefFindings& found) {
  auto real = registry::absolute_real_path(args, "path", found.path);
  if (!real || lints_with_a_process(*real)) return false;
  std::optional<fs::PathLocks> lock = fs::PathLocks::try_take(*real);
  if (!lock) return false;
  found.writer_lock = std::make_shared<const fs::PathLocks>(std::move(*lock));
  return true;
}

}  // namespace hermes::write_pipeline
