// SPDX-License-Identifier: MIT
// Human-readable meaning of a non-zero exit code, by the command that set it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace hermes::terminal {

// The base command of the last segment of `command` (split on `|| && | ;`):
// its first word that is not `VAR=val`, reduced to its basename.
std::string last_base_command(std::string_view command);

// The `exit_code_meaning` for `exit_code` (negative: killed by that signal),
// or nullopt when the code has no well-known meaning.
std::optional<std::string> exit_code_meaning(std::string_view command, int exit_code);

}  // namespace hermes::terminal
