// SPDX-License-Identifier: MIT
// Running one bash script through a backend: stdin fed from a thread, merged
// output streamed to the caller (or stderr kept apart), a deadline,
// cancellation, transport errors told apart from the script's own exit, and
// one retry after the backend recovers.
#pragma once

#include "backend/backend.h"
#include "proc/run.h"

#include <signal.h>

#include <chrono>
#include <optional>
#include <stop_token>
#include <string>

namespace hermes::backend {

struct BashRun {
  std::string script;
  bool login = false;
  // Written to the script's stdin, then closed; nullopt gives /dev/null.
  std::optional<std::string> stdin_data;
  std::chrono::milliseconds timeout{0};
  // A timeout or cancel sends `stop_signal` (SIGTERM, or SIGINT for a
  // foreground command) and SIGKILL after `kill_grace` (proc::RunLimits).
  int stop_signal = SIGTERM;
  std::chrono::milliseconds kill_grace{200};
  // Keep stderr out of the output and return it in BashOutcome::stderr_text.
  bool separate_stderr = false;
  // The launcher leads a new session (the default, as terminal commands
  // want); false gives it only its own process group, for short helper
  // runs (search engines) that a new scheduler autogroup would slow down.
  bool new_session = true;
  // Run the launcher under a whole-tree supervisor (proc::SpawnOptions::
  // whole_tree): a timeout or cancel then ends every process it started.
  bool whole_tree = false;
};

struct BashOutcome {
  proc::RunEnd end = proc::RunEnd::kExited;
  int exit_code = 0;
  // Cut short, and the stop signal did not end it within the grace: SIGKILL did.
  bool forced = false;
  // whole_tree: the command killed its supervisor (`kill -9 $PPID`); what it
  // started came back to the server, which ended it (proc/child_ledger.h)
  // but for `escapees_left` processes still alive when it gave up.
  bool escaped = false;
  int escapees_left = 0;
  // Only with separate_stderr (capped at 64 KiB).
  std::string stderr_text;
  // Whatever output the run produced before a transport error was found,
  // for backends to inspect; filled by run_bash_captured only.
  std::string output;
};

// Streams output to `on_output`. kUnavailable when the local launcher
// cannot be spawned or the backend reports a transport error (its message).
Result<BashOutcome> run_bash(Backend& backend, const BashRun& run, std::stop_token stop,
                             const proc::OutputCallback& on_output);

// Collects the output into BashOutcome::output (capped at `max_output`
// bytes; more is kTooLarge).
Result<BashOutcome> run_bash_captured(Backend& backend, const BashRun& run, std::stop_token stop,
                                      size_t max_output = size_t{256} << 20);

}  // namespace hermes::backend
