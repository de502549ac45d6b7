// SPDX-License-Identifier: MIT
#include "mcp/client_link.h"

#include "mcp/protocol.h"

namespace hermes::mcp {
void ClientLink::set_capabilities(const Json& capabilities) {
  elicitation_ = capabilities.is_object() && capabilities.contains("elicitation");
}

void ClientLink::notify(const std::string& method, const Json& params) {
  if (method == "notifications/message" && !logs_.passes(params)) return;
  writer_.write(make_notification(method, params));
}

std::optional<Json> ClientLink::request(const std::string& method, const Json& params,
                                        std::chrono::milliseconds timeout, std::stop_token stop) {
  return pending_.ask(
      method, params, [this](const Json& message) { return writer_.write(message); }, timeout,
      stop);
}

bool ClientLink::deliver_response(const Json& message) { return pending_.deliver(message); }

void ClientLink::close() { pending_.close(); }

}  // namespace hermes::mcp
