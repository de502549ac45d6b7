// SPDX-License-Identifier: MIT
// terminal's JSON edge (terminal_json.cc): the arguments (the reference's lenient reading) and the
// contract's JSON for an output or an error. The typed boundary is terminal.h, which has no JSON in
// it.
#pragma once

#include "core/result.h"
#include "json/json.h"
#include "tools/terminal/terminal.h"

namespace hermes::terminal {

Result<TerminalParams> parse_terminal_params(const Json& args);
Json terminal_json(const TerminalOutput& output);
Json terminal_error_json(const Error& error);

}  // namespace hermes::terminal
