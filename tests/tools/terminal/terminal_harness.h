// SPDX-License-Identifier: MIT
// Calls the terminal/process tools in a real session with a test config.
#pragma once

#include "registry/registry.h"
#include "testutil/tool_session.h"
#include "tools/terminal/terminal.h"

#include <string>

namespace hermes::testing {

class TerminalHarness : public ToolSession {
 public:
  explicit TerminalHarness(const std::string& yaml = "") : ToolSession(yaml) {
    terminal::register_terminal(registry());
  }
  Json run(const std::string& command) { return call("terminal", {{"command", command}}); }
};

}  // namespace hermes::testing
