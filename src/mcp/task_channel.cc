// SPDX-License-Identifier: MIT
#include "mcp/task_channel.h"

namespace hermes::mcp {

std::optional<Json> TaskChannel::request_named(const std::string& key, const std::string& method,
                                               const Json& params,
                                               std::chrono::milliseconds timeout,
                                               std::stop_token stop) {
  if (!link_.promoted()) return call_.request_named(key, method, params, timeout, stop);
  if (!call_.declared(method)) return std::nullopt;
  std::optional<Json> answer = link_.ask(key, method, params, timeout, stop);
  if (!answer || !InputRound::usable(method, *answer)) return std::nullopt;
  return answer;
}

}  // namespace hermes::mcp
