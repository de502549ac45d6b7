// SPDX-License-Identifier: MIT
// Running one foreground terminal command: workdir checks, the shell run,
// the output pipeline and the session cwd update.
#pragma once

#include "core/result.h"
#include "tools/terminal/output_pipeline.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <stop_token>
#include <string>

namespace hermes {
class Config;
}  // namespace hermes

namespace hermes::registry {
struct CallContext;
}  // namespace hermes::registry

namespace hermes::backend {
class Backend;
}  // namespace hermes::backend

namespace hermes::terminal {

struct ForegroundRequest {
  std::string command;
  int64_t timeout_seconds = 180;
  std::optional<std::string> workdir;
};

struct ForegroundResult {
  std::string output;
  int exit_code = 0;
  // A command cut short (timeout, cancellation): the signal that ended it,
  // "SIGINT", or "SIGKILL" when it outlived the grace after SIGINT.
  std::optional<std::string> stopped_by;
  // The new session cwd when this command changed it.
  std::optional<std::string> cwd;
  // Why the session cwd was put back at the workspace root.
  std::optional<std::string> cwd_note;
  // Once per session: commands are not write-fenced, and why.
  std::optional<std::string> notice;
  // Once per session: the shell snapshot bootstrap failed or was slow.
  std::optional<std::string> snapshot_note;
  FormattedOutput formatted;
};

// How long a command that is cut short (timeout, cancellation, session end)
// gets between the polite signal and SIGKILL: `terminal.kill_grace_seconds`
// (default 3, at most 60).
std::chrono::milliseconds kill_grace(const Config& config);

// The first character outside the workdir allow-list, if any.
std::optional<char> workdir_disallowed_char(std::string_view workdir);

// Python-repr quoting of one character (`'a'`, `"'"`, `'\n'`, `'\x00'`).
std::string py_repr_char(char c);

// The directory a command starts in, on the backend's target: `workdir`
// resolved (`~` is the target's home; containment enforced on the local
// backend when a workspace root is set), else the session cwd, else the
// backend's default cwd. kOutsideRoot for a workdir outside the root.
Result<std::string> start_directory(const ForegroundRequest& request, registry::CallContext& ctx,
                                    const backend::Backend& backend);

// Under a workspace root, on the local backend: the note saying why `dir`
// (whose real path, links resolved, is outside the root) gives way to the
// root; nullopt when it is inside, relative paths and no root included.
std::optional<std::string> cwd_outside_root(const std::string& dir, registry::CallContext& ctx,
                                            const backend::Backend& backend);

// Runs the command and formats its output. kUnavailable when bash cannot be
// spawned.
Result<ForegroundResult> run_foreground(const ForegroundRequest& request,
                                        registry::CallContext& ctx);

}  // namespace hermes::terminal
