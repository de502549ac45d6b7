// SPDX-License-Identifier: MIT
// The level a legacy session's client chose with logging/setLevel: a
// notifications/message below it is not sent. One per session (stdio's
// connection, a legacy HTTP session). Thread-safe.
#pragma once

#include "json/json.h"

#include <atomic>
#include <string>
#include <string_view>

namespace hermes::mcp {

// True for an RFC 5424 level name as MCP spells it (debug … emergency).
bool is_log_level(std::string_view level);

class LogThreshold {
 public:
  // logging/setLevel: false for an unknown level name (nothing changes).
  bool set(const std::string& level);
  // Whether a notifications/message with these params goes out: at or above
  // the level (everything until the client sets one).
  bool passes(const Json& params) const;

 private:
  std::atomic<int> min_{0};
};

}  // namespace hermes::mcp
