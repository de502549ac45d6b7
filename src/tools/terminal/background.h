// SPDX-License-Identifier: MIT
// terminal(background=true): start a tracked process in the session's
// registry, with completion and watch-pattern notices sent to the client.
#pragma once

#include "core/json.h"
#include "core/result.h"

#include <string>
#include <vector>

namespace hermes::registry {
struct CallContext;
}  // namespace hermes::registry

namespace hermes::terminal {

struct BackgroundRequest {
  std::string command;
  std::string cwd;
  bool pty = false;
  bool notify_on_complete = false;
  std::vector<std::string> watch_patterns;
};

struct BackgroundStarted {
  std::string session_id;
  int pid = -1;
};

// Spawns the job. Notices go out as MCP `notifications/message` (logger
// "process", level "info") with redacted text; they stay visible via poll.
Result<BackgroundStarted> start_background(const BackgroundRequest& request,
                                           registry::CallContext& ctx);

// ANSI-stripped, UTF-8-sanitised, redacted view of raw process output.
std::string clean_process_output(std::string_view raw, registry::CallContext& ctx);

}  // namespace hermes::terminal
