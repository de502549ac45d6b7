// SPDX-License-Identifier: MIT
// Persistence for the terminal: a fresh bash per call that restores the
// session's snapshot (exported variables, functions, aliases) and cwd, and
// records them again afterwards (docs/terminal.md).
#pragma once

#include "backend/backend.h"
#include "core/result.h"
#include "core/strings.h"
#include "proc/output_capture.h"
#include "proc/run.h"
#include "registry/call_status.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace hermes::terminal {

struct ShellCommand {
  std::string command;
  // Directory the command starts in, on the target.
  std::string cwd;
  // When `cwd` is gone, start in its nearest existing ancestor (the session
  // cwd) instead of failing with 126 (an explicit workdir).
  bool fall_back_to_ancestor = false;
  std::chrono::seconds timeout{180};
  // A timeout or cancel interrupts the command (SIGINT, as Ctrl-C would) and
  // SIGKILLs what is left after this grace (`terminal.kill_grace_seconds`).
  std::chrono::milliseconds kill_grace{3000};
  // Fed the output as it arrives (progress, a task's status); may be null.
  registry::CallStatus* status = nullptr;
};

struct ShellResult {
  // Merged stdout+stderr with the cwd marker removed.
  proc::OutputCapture output{kPrefixCap, kTailCap};
  proc::RunEnd end = proc::RunEnd::kExited;
  int exit_code = 0;
  bool forced = false;   // see BashOutcome::forced
  bool escaped = false;  // see BashOutcome::escaped
  int escapees_left = 0;
  // Physical cwd reported by the wrapper; nullopt when the command was
  // killed or ran `exit` (no marker printed).
  std::optional<std::string> final_cwd;

  // Up to the spill-file cap is kept verbatim; the tail window covers the
  // 60% tail of the truncated view with room to spare.
  static constexpr size_t kPrefixCap = 5'000'000;
  static constexpr size_t kTailCap = 512 * 1024;
};

// One per MCP session, bound to the session's backend on first use. Owns
// `<target tmp>/hermes-snap-<sid>.sh` on the target, removed on destruction.
// Every file operation on the snapshot happens inside the scripts, so the
// same code serves every backend. Thread-safe: concurrent calls each get
// their own bash; the snapshot is replaced atomically (last writer wins).
class ShellSession {
 public:
  ShellSession();
  ~ShellSession();
  ShellSession(const ShellSession&) = delete;
  ShellSession& operator=(const ShellSession&) = delete;

  // Runs `cmd` on `backend` to completion (or timeout / `stop`). Errors
  // when bash cannot be launched or the backend's transport failed.
  Result<ShellResult> run(const ShellCommand& cmd, const std::shared_ptr<backend::Backend>& backend,
                          std::stop_token stop);

  // Local argv for a background or PTY command: restores the snapshot and
  // cwd on the target, then runs the command (no snapshot is written back).
  // A non-empty `tag` is exported to the command and its descendants, so
  // kill_tagged_script can find them on the target.
  std::vector<std::string> background_argv(const std::string& command, const std::string& cwd,
                                           const std::shared_ptr<backend::Backend>& backend,
                                           std::chrono::milliseconds kill_grace,
                                           const std::string& tag = "");

  // Once: why the snapshot bootstrap failed or was slow (the reason and the
  // rc file), for the result of the call that paid for it; nullopt after.
  std::optional<std::string> take_snapshot_note();

  // The snapshot script when it is a file of this host (what the approval
  // gate reads definitions from), else "". Capped at kMaxSnapshotRead.
  std::string snapshot_text() const;
  static constexpr size_t kMaxSnapshotRead = 4 * 1024 * 1024;

  const std::string& marker() const { return marker_; }
  // Empty until bound to a backend.
  std::string snapshot_path() const;

 private:
  // Remembers the backend and places the snapshot in its temp dir.
  void bind(const std::shared_ptr<backend::Backend>& backend);
  // Bootstraps the snapshot once from a login shell (30 s limit); a cut-short
  // bootstrap gets SIGTERM and `kill_grace` before SIGKILL.
  void ensure_snapshot(backend::Backend& backend, std::stop_token stop,
                       std::chrono::milliseconds kill_grace);
  // `on_host`: the snapshot is a file of this host, renamed by run() itself.
  std::string wrapper(const ShellCommand& cmd, const std::string& next_snapshot,
                      bool on_host) const;

  const std::string sid_;
  const std::string marker_;
  mutable std::mutex mu_;
  std::shared_ptr<backend::Backend> backend_;  // mu_
  std::string snapshot_;                       // mu_ (written once, by bind)
  bool bootstrapped_ = false;                  // mu_
  bool have_snapshot_ = false;                 // mu_
  std::optional<std::string> snapshot_note_;   // mu_; see take_snapshot_note
  std::mutex bootstrap_mu_;                    // serializes the bootstrap itself
  std::atomic<uint64_t> counter_{0};
};

// A script that SIGTERMs every process on the target whose environment
// carries `tag` (see background_argv), without forking per process.
std::string kill_tagged_script(const std::string& tag);

// Removes the last `<marker>path<marker>` line from `output` (with the
// newline before it) and returns the path; nullopt when absent.
std::optional<std::string> take_cwd_marker(proc::OutputCapture& output, const std::string& marker);

}  // namespace hermes::terminal
