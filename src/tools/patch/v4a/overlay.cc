// SPDX-License-Identifier: MIT
#include "tools/patch/v4a/overlay.h"

#include <algorithm>

namespace hermes::v4a {

void Overlay::load(const std::string& path) {
  if (disk_.count(path)) return;
  FileState state;
  if (auto info = fs_.stat(path)) {
    state.exists = true;
    state.regular = info->type == fs::FileType::kRegular;
    state.mode = info->mode;
    if (state.regular) {
      auto data = fs_.read_all(path);
      if (data) {
        state.content = std::move(data).value();
      } else {  // treated like a non-file, with the reason
        state.regular = false;
        state.unreadable = data.error().message;
      }
    }
  }
  disk_[path] = state;
  now_[path] = state;
  order_.push_back(path);
}

const FileState& Overlay::get(const std::string& path) {
  load(path);
  return now_[path];
}

const FileState& Overlay::original(const std::string& path) {
  load(path);
  return disk_[path];
}

void Overlay::put(const std::string& path, std::string content, unsigned mode) {
  load(path);
  FileState& s = now_[path];
  s.exists = true;
  s.regular = true;
  s.content = std::move(content);
  if (mode != 0) s.mode = mode;
}

void Overlay::remove(const std::string& path) {
  load(path);
  now_[path] = FileState{};
}

std::vector<std::string> Overlay::changed() const {
  std::vector<std::string> out;
  for (const auto& path : order_) {
    const FileState& a = disk_.at(path);
    const FileState& b = now_.at(path);
    if (a.exists != b.exists || (b.exists && a.content != b.content)) out.push_back(path);
  }
  return out;
}

}  // namespace hermes::v4a
