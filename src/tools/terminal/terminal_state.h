// SPDX-License-Identifier: MIT
// The terminal's per-session state: the shell snapshot/cwd machinery.
// Destroyed with the MCP session, which removes the snapshot file; the
// session's background jobs (background_jobs::BackgroundJobs) have ended by
// then (`SessionState::on_session_end`).
#pragma once

#include "registry/session.h"
#include "tools/terminal/shell_session.h"

namespace hermes::terminal {

// Thread-safe (ShellSession is).
class TerminalState final : public registry::SessionState {
 public:
  ShellSession& shell() { return shell_; }

 private:
  ShellSession shell_;
};

}  // namespace hermes::terminal
