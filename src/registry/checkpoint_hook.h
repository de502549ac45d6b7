// SPDX-License-Identifier: MIT
// The dispatcher's side of checkpoints (docs/checkpoints.md): before a call
// whose tool declares a footprint (`ToolSpec::changes`), the paths it names
// resolve as the tool will resolve them and the workspace's checkpoint
// store keeps what they are; after it, what changed. A failure to record is
// logged and never fails the call.
#pragma once

#include "json/json.h"
#include "registry/tool.h"

#include <optional>

#include "checkpoint/checkpoints.h"

namespace hermes::registry {

// The workspace a call's checkpoints belong to: the `--root` tree, else the
// session's working directory (real path).
std::string checkpoint_workspace(const CallContext& ctx);

// Records the checkpoint before `spec` runs on `args`; nullopt when the call
// changes nothing, checkpoints are off, or recording failed (logged).
std::optional<checkpoint::Ticket> checkpoint_before(const ToolSpec& spec, const Json& args,
                                                    CallContext& ctx);
// Records what the call changed.
void checkpoint_after(const checkpoint::Ticket& ticket, CallContext& ctx);
// A command that goes on running after its call (a background job, process
// `pid` on this host) may change any file until it exits: the workspace's
// checkpoints hold no file meanwhile.
void checkpoint_job_started(int pid, CallContext& ctx);

}  // namespace hermes::registry
