// SPDX-License-Identifier: MIT
#include "tools/file_common/read_tracker.h"

namespace hermes {

bool stat_version(const FileSystem& fs, const std::string& real_path, FileVersion& out) {
  auto info = fs.stat(real_path);
  if (!info) return false;
  out = FileVersion{info->dev, info->ino, info->size, info->mtime_ns, info->ctime_ns};
  return true;
}

void ReadTracker::record_read(const std::string& real_path,
                              const FileVersion& version, bool whole_file) {
  std::lock_guard lock(mu_);
  Stamp& stamp = stamps_[real_path];
  // A partial read of the same version keeps an earlier whole-file stamp.
  bool keep_whole = stamp.whole_file && stamp.version == version;
  stamp.version = version;
  stamp.whole_file = whole_file || keep_whole;
}

void ReadTracker::record_write(const std::string& real_path,
                               const FileVersion& version, Baseline baseline) {
  std::vector<std::function<void(const std::string&)>> listeners;
  {
    std::lock_guard lock(mu_);
    if (baseline == Baseline::kEarned) {
      stamps_[real_path] = Stamp{version, true};
    } else {
      stamps_.erase(real_path);
    }
    listeners = listeners_;
  }
  for (auto& listener : listeners) listener(real_path);
}

bool ReadTracker::has_seen_whole(const std::string& real_path,
                                 const FileVersion& current) const {
  std::lock_guard lock(mu_);
  auto it = stamps_.find(real_path);
  return it != stamps_.end() && it->second.whole_file && it->second.version == current;
}

bool ReadTracker::has_read(const std::string& real_path) const {
  std::lock_guard lock(mu_);
  return stamps_.count(real_path) > 0;
}

void ReadTracker::add_write_listener(std::function<void(const std::string&)> listener) {
  std::lock_guard lock(mu_);
  listeners_.push_back(std::move(listener));
}

}  // namespace hermes
