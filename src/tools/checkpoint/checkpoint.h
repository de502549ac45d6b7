// SPDX-License-Identifier: MIT
// The `checkpoint` tool (docs/tools/checkpoint.md): lists the checkpoints
// the dispatcher recorded before each call that could change the workspace,
// shows what changed since one (a unified diff), and restores the workspace
// to the state just before one, all or some paths, refusing to overwrite a
// path edited by hand since the agent last wrote it.
#pragma once

#include "core/result.h"
#include "registry/tool.h"

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "checkpoint/checkpoints.h"

namespace hermes::registry {
class Registry;
}  // namespace hermes::registry

namespace hermes::checkpoint_tool {

enum class Action { kList, kDiff, kRestore };

struct CheckpointParams {
  Action action = Action::kList;
  uint64_t id = 0;                 // diff, restore: required
  std::optional<uint64_t> to;      // diff: the later checkpoint (none: now)
  std::vector<std::string> paths;  // restore: only these (relative to the workspace, or absolute)
  bool force = false;              // restore: overwrite hand edits too
};

struct CheckpointList {
  std::vector<checkpoint::Checkpoint> checkpoints;  // oldest first
};

struct CheckpointDiff {
  std::string diff;                // unified diff; empty: no difference
  std::vector<std::string> paths;  // the paths that differ
};

struct CheckpointRestored {
  checkpoint::RestoreReport report;
};

// Restore refused: paths changed by hand since the agent last wrote them.
struct CheckpointRefused {
  Error error;
  std::vector<std::string> hand_edited;
};

using CheckpointOutput =
    std::variant<CheckpointList, CheckpointDiff, CheckpointRestored, CheckpointRefused>;

Result<CheckpointOutput> checkpoint(const CheckpointParams& params, registry::CallContext& ctx);
const Error* checkpoint_failure(const CheckpointOutput& output);

void register_checkpoint(registry::Registry& registry);

}  // namespace hermes::checkpoint_tool
