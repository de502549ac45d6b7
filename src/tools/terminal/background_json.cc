// SPDX-License-Identifier: MIT
// A background job's notice at the JSON edge: the `notifications/message`
// the client receives (docs/terminal.md).
#include "json/json.h"
#include "registry/client_channel.h"
#include "tools/terminal/background.h"

#include <string>

namespace hermes::terminal {
namespace {

std::string kind_name(proc::ProcessEvent::Kind kind) {
  switch (kind) {
    case proc::ProcessEvent::Kind::kCompletion:
      return "completion";
    case proc::ProcessEvent::Kind::kWatchMatch:
      return "watch_match";
    case proc::ProcessEvent::Kind::kWatchDisabled:
      return "watch_disabled";
  }
  return "event";
}

Json notice_json(const ProcessNotice& notice) {
  const proc::ProcessEvent& e = notice.event;
  Json data{{"type", kind_name(e.kind)}, {"session_id", e.id}, {"command", e.command}};
  if (e.kind == proc::ProcessEvent::Kind::kCompletion) {
    data["exit_code"] = e.exit_code;
    data["completion_reason"] = e.completion_reason;
    data["output"] = e.output;
    if (notice.output_cut) data["output_cut"] = true;
  } else if (e.kind == proc::ProcessEvent::Kind::kWatchMatch) {
    data["pattern"] = e.pattern;
    data["output"] = e.output;
    data["suppressed"] = e.suppressed;
  }
  return data;
}

}  // namespace

void send_process_notice(registry::ClientChannel& client, const ProcessNotice& notice) {
  client.notify("notifications/message",
                Json{{"level", "info"}, {"logger", "process"}, {"data", notice_json(notice)}});
}

}  // namespace hermes::terminal
