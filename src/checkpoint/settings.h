// SPDX-License-Identifier: MIT
// The `checkpoints.*` configuration keys (docs/checkpoints.md), read per
// call so a changed config.yaml applies to the next call.
#pragma once

#include <cstdint>
#include <set>
#include <string>

namespace hermes {
class Config;
}  // namespace hermes

namespace hermes::checkpoint {

struct Settings {
  bool enabled = true;                      // checkpoints.enabled
  uint64_t max_file_bytes = 8 << 20;        // checkpoints.max_file_bytes: larger files by metadata
  int64_t max_age_seconds = 7 * 24 * 3600;  // checkpoints.max_age_days
  uint64_t max_store_bytes = 2ULL << 30;    // checkpoints.max_store_mb
  std::set<std::string> ignored;            // checkpoints.ignore: directory names not scanned
  uint64_t max_scan_entries =
      20000;          // checkpoints.max_scan_entries: larger trees, no shell capture
  bool watch = true;  // checkpoints.watch: learn shell changes from inotify, not a walk per call
  uint64_t hold_min_bytes = 64 << 10;  // checkpoints.hold_min_bytes: edited files this big are held
};

Settings settings_from(const Config& config);

// The directory names a scan skips unless `checkpoints.ignore` says
// otherwise: version-control stores and the usual build and dependency output.
const std::set<std::string>& default_ignored();

}  // namespace hermes::checkpoint
