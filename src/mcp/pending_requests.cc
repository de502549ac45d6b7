// SPDX-License-Identifier: MIT
#include "mcp/pending_requests.h"

namespace hermes::mcp {

std::optional<Json> PendingRequests::ask(const std::string& method, const Json& params,
                                         const std::function<bool(const Json& message)>& send,
                                         std::chrono::milliseconds timeout, std::stop_token stop) {
  std::string id;
  {
    std::lock_guard lock(mu_);
    if (closed_) return std::nullopt;
    id = "hermes-" + std::to_string(next_id_++);
    pending_[id];
  }
  Json message = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}};
  // Sent unlocked: the response may be delivered before the wait begins.
  bool sent = send(message);
  std::unique_lock lock(mu_);
  if (!sent) {
    pending_.erase(id);
    return std::nullopt;
  }
  std::stop_callback wake(stop, [this] { cv_.notify_all(); });
  cv_.wait_for(lock, timeout,
               [&] { return pending_[id].done || closed_ || stop.stop_requested(); });
  std::optional<Json> result = std::move(pending_[id].result);
  pending_.erase(id);
  return result;
}

bool PendingRequests::deliver(const Json& message) {
  if (!message.contains("id") || !message["id"].is_string()) return false;
  std::lock_guard lock(mu_);
  auto it = pending_.find(message["id"].get<std::string>());
  if (it == pending_.end()) return false;
  it->second.done = true;
  if (message.contains("result")) it->second.result = message["result"];
  cv_.notify_all();
  return true;
}

void PendingRequests::close() {
  std::lock_guard lock(mu_);
  closed_ = true;
  cv_.notify_all();
}

}  // namespace hermes::mcp
