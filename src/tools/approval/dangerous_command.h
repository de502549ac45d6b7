// SPDX-License-Identifier: MIT
// The dangerous-command detector (docs/approval.md): a hardline tier
// that is always blocked and the dangerous families that need approval.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shell/analyze.h"

namespace hermes::approval {

struct Detection {
  // The family's description, which is also its approval key.
  std::string description;
  // Catastrophic: blocked whatever the approval settings.
  bool hardline = false;
};

// Reads `command` as bash would in a session carrying `session`'s
// definitions (functions, aliases, variables, working directory) and
// returns the first hardline finding, else the first dangerous one, else
// nullopt. Bounded: a command too large or too nested to read counts as
// dangerous ("command parser limit exceeded"). Thread-safe.
// `after`, when given, receives the session's definitions as the command
// would leave them.
std::optional<Detection> detect_dangerous(std::string_view command,
                                          const shell::Environment& session = {},
                                          shell::Environment* after = nullptr);

// For tests: descriptions of rules whose patterns failed to compile.
std::vector<std::string> broken_rules();

}  // namespace hermes::approval
