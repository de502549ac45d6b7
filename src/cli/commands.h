// SPDX-License-Identifier: MIT
// The subcommands: `mcp` (serve on stdio), `call` (one tool call, or a batch
// of calls in one session from stdin) and `tools` (list the tools).
#pragma once

#include "cli/runtime.h"
#include "mcp/protocol.h"

#include <string>
#include <thread>

namespace hermes::cli {

// Our name, version and instructions, as both transports announce them.
mcp::ServerIdentity server_identity();
// Starts checking a remote backend beside the server (an error is logged).
std::jthread check_backend(const Config& config);

int run_mcp(const Runtime& runtime);
// `json_args` is the arguments object as text; `tool == "-"` reads JSON lines
// `{"tool": …, "arguments": {…}}` from stdin and answers each on one line,
// all in one session.
int run_call(const Runtime& runtime, const std::string& tool, const std::string& json_args);
int run_tools(const Runtime& runtime, bool as_json);

}  // namespace hermes::cli
