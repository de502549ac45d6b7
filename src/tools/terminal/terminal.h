// SPDX-License-Identifier: MIT
// terminal: its typed arguments, its outcomes, and the handler that runs the
// checks of docs/terminal.md in order and then the command, in the
// foreground or as a background job. The JSON shapes live in
// terminal_json.cc.
#pragma once

#include "core/result.h"
#include "registry/tool.h"
#include "tools/terminal/background.h"
#include "tools/terminal/foreground.h"

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace hermes::registry {
class Registry;
}  // namespace hermes::registry

namespace hermes::terminal {

struct TerminalParams {
  std::string command;
  bool background = false;
  int64_t timeout = 0;  // seconds; 0: terminal.timeout. Negative: refused by the handler
  std::optional<std::string> workdir;  // never empty
  bool pty = false;
  bool notify_on_complete = false;
  std::vector<std::string> watch_patterns;  // the non-empty strings given
};

// A foreground command that ran, whatever its exit code.
struct TerminalRan {
  ForegroundResult run;
  std::string approval;  // the approval note when a human approved it, else empty
  std::optional<std::string> exit_code_meaning;
};

// A background job that started.
struct TerminalStarted {
  BackgroundStarted job;
  std::string approval;       // the approval note when a human approved it, else empty
  bool pty_disabled = false;  // gh auth login --with-token needs a pipe
  bool notify_on_complete = false;
  bool watch_patterns_ignored = false;      // given along with notify_on_complete
  std::vector<std::string> watch_patterns;  // watched (empty: not watching)
  std::optional<std::string> notice;
  std::optional<std::string> snapshot_note;  // see ForegroundResult::snapshot_note
  // Notifications were asked for, but this client connection cannot
  // receive them once the call has returned (ClientChannel).
  bool notifications_undeliverable = false;
};

// Refused with `status: "blocked"`: the approval gate (kPermissionDenied), a
// workdir with shell metacharacters (kInvalidArgument) or outside the
// workspace root (kOutsideRoot).
struct TerminalBlocked {
  Error error;
};

// A dangerous command nobody could approve over MCP: not run,
// `status: "pending_approval"` (kPermissionDenied).
struct TerminalPending {
  Error error;
  std::string command;
  std::string description;  // the dangerous family, which is also the approval key
};

// A foreground timeout above terminal.max_foreground_timeout: refused with
// an `error` and no `status` (kInvalidArgument).
struct TerminalTimeoutRefused {
  Error error;
};

using TerminalOutput = std::variant<TerminalRan, TerminalStarted, TerminalBlocked, TerminalPending,
                                    TerminalTimeoutRefused>;

// Runs terminal. Failures that are only a message (arguments, the
// foreground guardrail, a backend or spawn failure) are errors and render
// with `status: "error"`; the refusals above are outputs, `terminal_failure`
// names their failure.
Result<TerminalOutput> terminal(const TerminalParams& params, registry::CallContext& ctx);
const Error* terminal_failure(const TerminalOutput& output);

void register_terminal(registry::Registry& registry);

}  // namespace hermes::terminal
