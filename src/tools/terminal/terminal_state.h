// SPDX-License-Identifier: MIT
// The terminal's per-session state: the shell snapshot/cwd machinery.
// Destroyed with the MCP session, which removes the snapshot file.
#pragma once

#include "registry/session.h"
#include "tools/terminal/shell_session.h"

namespace hermes {

// Thread-safe (ShellSession is).
class TerminalState final : public SessionState {
 public:
  ShellSession& shell() { return shell_; }

 private:
  ShellSession shell_;
};

}  // namespace hermes
