// SPDX-License-Identifier: MIT
// What one edit (either mode) changed; its failures are `Error`s carrying
// the contract's text. tools/patch/patch.h wraps it into the tool's output.
#pragma once

#include "tools/patch/match/strategies.h"
#include "tools/write_pipeline/lint.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hermes::patch {

struct PatchSuccess {
  std::string diff;
  std::vector<std::string> files_modified;  // absolute paths, in result order
  std::vector<std::string> files_created;
  std::vector<std::string> files_deleted;
  std::vector<std::pair<std::string, write_pipeline::LintReport>> lint;  // per written file
  std::optional<match::Strategy> strategy;                               // replace mode only
  bool no_change = false;
  std::string note;
};

}  // namespace hermes::patch
