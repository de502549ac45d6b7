// SPDX-License-Identifier: MIT
// Foreground guardrails: commands that background themselves or start
// long-lived servers are returned unrun with guidance to use background=true.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace hermes::terminal {

// The refusal text for a foreground `command`, or nullopt when it may run.
// Quoted spans are ignored; `--help`/`--version`/trailing `-h`/`-v` exempt.
std::optional<std::string> foreground_guardrail(std::string_view command);

}  // namespace hermes::terminal
