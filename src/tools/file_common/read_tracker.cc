// SPDX-License-Identifier: MIT
#include "tools/file_common/read_tracker.h"

#include <algorithm>

namespace hermes::file_common {

bool stat_version(const fs::FileSystem& fs, const std::string& real_path, FileVersion& out) {
  auto info = fs.stat(real_path);
  if (!info) return false;
  out = FileVersion{info->dev, info->ino, info->size, info->mtime_ns, info->ctime_ns};
  return true;
}

void ReadTracker::record_read(const std::string& real_path, const FileVersion& version,
                              const ReadSpan& span) {
  std::lock_guard lock(mu_);
  Stamp& stamp = stamps_[real_path];
  if (stamp.version != version) stamp = Stamp{version};
  // A page that starts at or before the first unseen line extends the run.
  if (span.exact && span.first <= stamp.seen_through + 1) {
    stamp.seen_through = std::max(stamp.seen_through, span.last);
  }
  // A partial read of the same version keeps an earlier whole-file stamp.
  if (span.exact && stamp.seen_through >= span.total) stamp.whole_file = true;
}

void ReadTracker::record_write(const std::string& real_path, const FileVersion& version,
                               Baseline baseline) {
  std::lock_guard lock(mu_);
  if (baseline == Baseline::kEarned) {
    stamps_[real_path] = Stamp{version, 0, true};
  } else {
    stamps_.erase(real_path);
  }
  for (auto& [id, listener] : listeners_) listener(real_path);
}

bool ReadTracker::has_seen_whole(const std::string& real_path, const FileVersion& current) const {
  std::lock_guard lock(mu_);
  auto it = stamps_.find(real_path);
  return it != stamps_.end() && it->second.whole_file && it->second.version == current;
}

bool ReadTracker::has_read(const std::string& real_path) const {
  std::lock_guard lock(mu_);
  return stamps_.count(real_path) > 0;
}

bool ReadTracker::changed_since_read(const std::string& real_path,
                                     const FileVersion& current) const {
  std::lock_guard lock(mu_);
  auto it = stamps_.find(real_path);
  return it != stamps_.end() && it->second.version != current;
}

uint64_t ReadTracker::add_write_listener(std::function<void(const std::string&)> listener) {
  std::lock_guard lock(mu_);
  listeners_.emplace(next_listener_, std::move(listener));
  return next_listener_++;
}

void ReadTracker::remove_write_listener(uint64_t id) {
  std::lock_guard lock(mu_);
  listeners_.erase(id);
}

}  // namespace hermes::file_common
