// SPDX-License-Identifier: MIT
#include "checkpoint/settings.h"

#include "core/config.h"

#include <algorithm>

namespace hermes::checkpoint {

const std::set<std::string>& default_ignored() {
  static const std::set<std::string> names{
      ".git", ".hg",         ".svn",          "node_modules", "__pycache__", ".venv", "venv",
      ".tox", ".mypy_cache", ".pytest_cache", "target",       "dist",        "build", ".cache"};
  return names;
}

Settings settings_from(const Config& config) {
  Settings s;
  s.enabled = config.get_bool("checkpoints.enabled", true);
  s.max_file_bytes = static_cast<uint64_t>(
      std::max<int64_t>(0, config.get_int("checkpoints.max_file_bytes", 8 << 20)));
  s.max_age_seconds =
      std::max<int64_t>(0, config.get_int("checkpoints.max_age_days", 7)) * 24 * 3600;
  s.max_store_bytes =
      static_cast<uint64_t>(std::max<int64_t>(1, config.get_int("checkpoints.max_store_mb", 2048)))
      << 20;
  s.max_scan_entries = static_cast<uint64_t>(
      std::max<int64_t>(0, config.get_int("checkpoints.max_scan_entries", 20000)));
  s.watch = config.get_bool("checkpoints.watch", true);
  s.hold_min_bytes = static_cast<uint64_t>(
      std::max<int64_t>(0, config.get_int("checkpoints.hold_min_bytes", 64 << 10)));
  std::vector<std::string> ignore = config.get_string_list("checkpoints.ignore");
  s.ignored = config.has("checkpoints.ignore") ? std::set<std::string>(ignore.begin(), ignore.end())
                                               : default_ignored();
  return s;
}

}  // namespace hermes::checkpoint
