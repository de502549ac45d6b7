// SPDX-License-Identifier: MIT
#include "mcp/call_channel.h"

namespace hermes::mcp {

std::optional<Json> CallChannel::request(const std::string& method, const Json& params,
                                         std::chrono::milliseconds timeout, std::stop_token stop) {
  auto send = [this](const Json& message) {
    send_(message);
    return true;
  };
  return pending_.ask(method, params, send, timeout, stop);
}

}  // namespace hermes::mcp
