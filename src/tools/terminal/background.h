// SPDX-License-Identifier: MIT
// terminal(background=true): start a tracked process in the session's
// registry, with completion and watch-pattern notices sent to the client.
#pragma once

#include "core/result.h"
#include "proc/process_registry.h"

#include <string>
#include <vector>

namespace hermes::registry {
struct CallContext;
class ClientChannel;
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

// A job's event as its notice reports it: the command redacted, the output
// cleaned and redacted (a completion's cut to its tail, `output_cut`).
struct ProcessNotice {
  proc::ProcessEvent event;
  bool output_cut = false;
};

// Sends `notice` as MCP `notifications/message` (logger "process", level
// "info"); background_json.cc.
void send_process_notice(registry::ClientChannel& client, const ProcessNotice& notice);

}  // namespace hermes::terminal
