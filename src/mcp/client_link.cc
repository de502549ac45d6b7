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
  std::string id;
  {
    std::lock_guard lock(mu_);
    if (closed_) return std::nullopt;
    id = "hermes-" + std::to_string(next_id_++);
    pending_[id];
  }
  Json message = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}};
  if (!writer_.write(message)) return std::nullopt;
  std::unique_lock lock(mu_);
  std::stop_callback wake(stop, [this] { cv_.notify_all(); });
  cv_.wait_for(lock, timeout,
               [&] { return pending_[id].done || closed_ || stop.stop_requested(); });
  std::optional<Json> result = std::move(pending_[id].result);
  pending_.erase(id);
  return result;
}

bool ClientLink::deliver_response(const Json& message) {
  if (!message.contains("id") || !message["id"].is_string()) return false;
  std::lock_guard lock(mu_);
  auto it = pending_.find(message["id"].get<std::string>());
  if (it == pending_.end()) return false;
  it->second.done = true;
  if (message.contains("result")) it->second.result = message["result"];
  cv_.notify_all();
  return true;
}

void ClientLink::close() {
  std::lock_guard lock(mu_);
  closed_ = true;
  cv_.notify_all();
}

}  // namespace hermes::mcp
