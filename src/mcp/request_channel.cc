// SPDX-License-Identifier: MIT
#include "mcp/request_channel.h"

#include "mcp/protocol.h"

namespace hermes::mcp {

RequestChannel::Route RequestChannel::open(const Json& token, Sink sink) {
  if (token.is_null()) return Route();
  std::string key = dump_json(token);
  std::lock_guard lock(mu_);
  if (!sinks_.try_emplace(key, std::move(sink)).second) return Route();
  return Route(this, std::move(key));
}

RequestChannel::Route::~Route() {
  if (!channel_) return;
  std::lock_guard lock(channel_->mu_);
  channel_->sinks_.erase(key_);
}

void RequestChannel::notify(const std::string& method, const Json& params) {
  if (method != "notifications/progress" || !params.contains("progressToken")) return;
  std::lock_guard lock(mu_);
  auto it = sinks_.find(dump_json(params["progressToken"]));
  if (it != sinks_.end()) it->second(make_notification(method, params));
}

}  // namespace hermes::mcp
