// SPDX-License-Identifier: MIT
#include "mcp/call_channel.h"

#include "mcp/protocol.h"

namespace hermes::mcp {

void CallChannel::notify(const std::string& method, const Json& params) {
  if (method != "notifications/message") return session_.notify(method, params);
  if (logs_.passes(params)) send_(make_notification(method, params));
}

std::optional<Json> CallChannel::request(const std::string& method, const Json& params,
                                         std::chrono::milliseconds timeout, std::stop_token stop) {
  auto send = [this](const Json& message) {
    send_(message);
    return true;
  };
  return pending_.ask(method, params, send, timeout, stop);
}

}  // namespace hermes::mcp
