// SPDX-License-Identifier: MIT
// Persistence for the terminal: a fresh bash per call that restores the
// session's snapshot (exported variables, functions, aliases) and cwd, and
// records them again afterwards (shell-and-exec §1.7).
#pragma once

#include <atomic>
#include <chrono>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "core/result.h"
#include "core/strings.h"
#include "proc/output_capture.h"
#include "proc/run.h"

namespace hermes {

struct ShellCommand {
  std::string command;
  // Existing directory the command starts in.
  std::string cwd;
  std::chrono::seconds timeout{180};
};

struct ShellResult {
  // Merged stdout+stderr with the cwd marker removed.
  proc::OutputCapture output{kPrefixCap, kTailCap};
  proc::RunEnd end = proc::RunEnd::kExited;
  int exit_code = 0;
  // Physical cwd reported by the wrapper; nullopt when the command was
  // killed or ran `exit` (no marker printed).
  std::optional<std::string> final_cwd;

  // Up to the spill-file cap is kept verbatim; the tail window covers the
  // 60% tail of the truncated view with room to spare.
  static constexpr size_t kPrefixCap = 5'000'000;
  static constexpr size_t kTailCap = 512 * 1024;
};

// One per MCP session. Owns `<tmp>/hermes-snap-<sid>.sh`, removed on
// destruction. Thread-safe: concurrent calls each get their own bash; the
// snapshot is replaced atomically (last writer wins).
class ShellSession {
 public:
  ShellSession();
  ~ShellSession();
  ShellSession(const ShellSession&) = delete;
  ShellSession& operator=(const ShellSession&) = delete;

  // Runs `cmd` to completion (or timeout / `stop`). Errors only when bash
  // cannot be spawned.
  Result<ShellResult> run(const ShellCommand& cmd, std::stop_token stop);

  // argv for a background or PTY command: restores the snapshot and cwd,
  // then runs the command (no snapshot is written back).
  std::vector<std::string> background_argv(const std::string& command,
                                           const std::string& cwd);

  const std::string& snapshot_path() const { return snapshot_; }
  const std::string& marker() const { return marker_; }

 private:
  // Bootstraps the snapshot once from a login shell (30 s limit).
  void ensure_snapshot(std::stop_token stop);
  std::string wrapper(const ShellCommand& cmd, const std::string& next_snapshot) const;

  std::string snapshot_;
  std::string marker_;
  std::mutex bootstrap_mu_;
  bool bootstrapped_ = false;   // bootstrap_mu_
  bool have_snapshot_ = false;  // bootstrap_mu_
  std::atomic<uint64_t> counter_{0};
};

// Removes the last `<marker>path<marker>` line from `output` (with the
// newline before it) and returns the path; nullopt when absent.
std::optional<std::string> take_cwd_marker(proc::OutputCapture& output,
                                           const std::string& marker);

// `path` if it is a directory, else its nearest existing ancestor.
std::string nearest_existing_dir(const std::string& path);

}  // namespace hermes
