// SPDX-License-Identifier: MIT
// The lint object as it appears in write_file and patch results (docs/tools/write_file.md).
#pragma once

#include "json/json.h"
#include "tools/write_pipeline/lint.h"

namespace hermes::write_pipeline {

inline Json lint_json(const LintReport& lint) {
  Json out = {{"status", lint.status}};
  if (lint.status != "skipped") out["output"] = lint.output;
  if (!lint.message.empty()) out["message"] = lint.message;
  return out;
}

}  // namespace hermes::write_pipeline
