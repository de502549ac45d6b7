// SPDX-License-Identifier: MIT
// The terminal's per-session state: the shell snapshot/cwd machinery and the
// background processes. Destroyed with the MCP session, which kills every
// background process and removes the snapshot file.
#pragma once

#include "proc/process_registry.h"
#include "registry/session.h"
#include "tools/terminal/shell_session.h"

namespace hermes::terminal {

// Thread-safe (ShellSession and ProcessRegistry are).
class TerminalState final : public registry::SessionState {
 public:
  ShellSession& shell() { return shell_; }
  proc::ProcessRegistry& processes() { return processes_; }

 private:
  ShellSession shell_;
  // Declared last: destroyed (processes killed) first.
  proc::ProcessRegistry processes_;
};

}  // namespace hermes::terminal
