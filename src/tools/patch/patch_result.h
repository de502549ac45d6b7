// SPDX-License-Identifier: MIT
// The typed outcome of one patch call (either mode), turned into the
// contract's JSON by patch_tool.cc.
#pragma once

#include "tools/patch/match/strategies.h"
#include "tools/write_pipeline/lint.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hermes {

struct PatchSuccess {
  std::string diff;
  std::vector<std::string> files_modified;  // absolute paths, in result order
  std::vector<std::string> files_created;
  std::vector<std::string> files_deleted;
  std::vector<std::pair<std::string, LintReport>> lint;  // per written file
  std::optional<match::Strategy> strategy;               // replace mode only
  bool no_change = false;
  std::string note;
};

struct PatchFailure {
  std::string message;
};

}  // namespace hermes
