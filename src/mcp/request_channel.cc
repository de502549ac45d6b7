// SPDX-License-Identifier: MIT
#include "mcp/request_channel.h"

#include "mcp/protocol.h"

namespace hermes::mcp {

void RequestChannel::open(const Json& token, Sink sink) {
  if (token.is_null()) return;
  std::lock_guard lock(mu_);
  sinks_[dump_json(token)] = std::move(sink);
}

void RequestChannel::close(const Json& token) {
  if (token.is_null()) return;
  std::lock_guard lock(mu_);
  sinks_.erase(dump_json(token));
}

void RequestChannel::notify(const std::string& method, const Json& params) {
  if (method != "notifications/progress" || !params.contains("progressToken")) return;
  std::lock_guard lock(mu_);
  auto it = sinks_.find(dump_json(params["progressToken"]));
  if (it != sinks_.end()) it->second(make_notification(method, params));
}

}  // namespace hermes::mcp
