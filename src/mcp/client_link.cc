// SPDX-License-Identifier: MIT
#include "mcp/client_link.h"

#include "mcp/protocol.h"

#include <array>

namespace hermes::mcp {
namespace {

// RFC 5424 levels in the order MCP uses.
constexpr std::array<std::string_view, 8> kLevels = {"debug", "info",     "notice", "warning",
                                                     "error", "critical", "alert",  "emergency"};

int level_index(std::string_view level) {
  for (size_t i = 0; i < kLevels.size(); ++i) {
    if (kLevels[i] == level) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace

bool is_log_level(std::string_view level) { return level_index(level) >= 0; }

void ClientLink::set_capabilities(const Json& capabilities) {
  elicitation_ = capabilities.is_object() && capabilities.contains("elicitation");
}

bool ClientLink::set_log_level(const std::string& level) {
  int index = level_index(level);
  if (index < 0) return false;
  min_log_level_ = index;
  return true;
}

void ClientLink::notify(const std::string& method, const Json& params) {
  if (method == "notifications/message" && params.contains("level") &&
      params["level"].is_string() &&
      level_index(params["level"].get<std::string>()) < min_log_level_) {
    return;
  }
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
