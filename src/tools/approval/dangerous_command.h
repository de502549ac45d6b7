// SPDX-License-Identifier: MIT
// The dangerous-command detector of shell-and-exec §3.4: a hardline tier
// that is always blocked and the dangerous families that need approval.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hermes::approval {

struct Detection {
  // The family's description, which is also its approval key.
  std::string description;
  // Catastrophic: blocked whatever the approval settings.
  bool hardline = false;
};

// The first hardline rule that matches any variant of `command`, else the
// first dangerous rule, else nullopt. Linear in the command length (RE2).
// Thread-safe.
std::optional<Detection> detect_dangerous(std::string_view command);

// For tests: descriptions of rules whose patterns failed to compile.
std::vector<std::string> broken_rules();

}  // namespace hermes::approval
