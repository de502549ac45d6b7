// SPDX-License-Identifier: MIT
// patch: its typed arguments and outcomes, and the handler that resolves and
// guards the paths of either mode, takes their locks and applies the edit
// (docs/tools/patch.md). The JSON shapes live in patch_json.cc.
#pragma once

#include "core/paths.h"
#include "core/result.h"
#include "registry/tool.h"
#include "tools/patch/patch_result.h"
#include "tools/patch/replace_mode.h"

#include <string>
#include <variant>
#include <vector>

namespace hermes::registry {
class Registry;
}  // namespace hermes::registry

namespace hermes::patch {

enum class PatchMode { kReplace, kPatch };

struct PatchParams {
  PatchMode mode = PatchMode::kReplace;
  std::string path;     // replace mode: never empty
  ReplaceArgs replace;  // replace mode
  std::string patch;    // patch mode: the V4A text, never empty
  bool cross_profile = false;
};

// The edit was applied (or was already there: `edit.no_change`).
struct PatchApplied {
  PatchSuccess edit;
  std::vector<ResolvedPath> paths;  // every path the call named, resolved
  // Files changed since the session read them, then outside-the-workspace
  // warnings, or empty.
  std::string warning;
};

// A refused or failed edit, with the hint the session's history earned.
struct PatchFailed {
  Error error;
  std::string hint;  // empty: none
};

using PatchOutput = std::variant<PatchApplied, PatchFailed>;

// Runs patch. Every failure is a `PatchFailed` (its JSON has `success:
// false`), so the handler itself does not fail.
Result<PatchOutput> patch(const PatchParams& params, registry::CallContext& ctx);
// Arguments `parse_patch_params` refused: counts the malformed call.
Result<PatchOutput> patch_rejected(const Error& error, registry::CallContext& ctx);
// The failure an output stands for, or nullptr for an applied edit.
const Error* patch_failure(const PatchOutput& output);

void register_patch(registry::Registry& registry);

}  // namespace hermes::patch
