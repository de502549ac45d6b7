// SPDX-License-Identifier: MIT
#include "core/log.h"

#include <unistd.h>

#include <atomic>
#include <string>

namespace hermes::log {
namespace {
std::atomic<Level> g_level{Level::kInfo};

const char* level_name(Level level) {
  switch (level) {
    case Level::kDebug:
      return "debug";
    case Level::kInfo:
      return "info";
    case Level::kWarn:
      return "warning";
    case Level::kError:
      return "error";
  }
  return "?";
}
}  // namespace

void set_level(Level level) { g_level = level; }

void write(Level level, std::string_view message) {
  if (level < g_level.load()) return;
  // One write(2) per line keeps lines from different threads whole.
  std::string line = "hermes-tools: ";
  line += level_name(level);
  line += ": ";
  line += message;
  line += '\n';
  (void)!::write(STDERR_FILENO, line.data(), line.size());
}

}  // namespace hermes::log
