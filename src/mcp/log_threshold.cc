// SPDX-License-Identifier: MIT
#include "mcp/log_threshold.h"

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

bool LogThreshold::set(const std::string& level) {
  int index = level_index(level);
  if (index < 0) return false;
  min_ = index;
  return true;
}

bool LogThreshold::passes(const Json& params) const {
  auto level = params.find("level");
  if (level == params.end() || !level->is_string()) return true;
  return level_index(level->get_ref<const std::string&>()) >= min_;
}

}  // namespace hermes::mcp
