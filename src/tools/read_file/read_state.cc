// SPDX-License-Identifier: MIT
// Dedup stamps, repeat counters and the negative cache, all under one mutex
// per session.
#include "tools/read_file/read_state.h"

#include "tools/file_common/read_tracker.h"

namespace hermes::read_file {
namespace {
constexpr auto kNegativeTtl = std::chrono::seconds(60);
}  // namespace

void ReadState::attach(file_common::ReadTracker& tracker) {
  {
    std::lock_guard lock(mu_);
    if (attached_) return;
    attached_ = true;
  }
  tracker.add_write_listener([this](const std::string& path) { drop_path(path); });
}

std::optional<ReadFileNotFound> ReadState::cached_not_found(const std::string& real_path,
                                                            Clock::TimePoint now) {
  std::lock_guard lock(mu_);
  auto it = misses_.find(real_path);
  if (it == misses_.end()) return std::nullopt;
  if (now - it->second.second >= kNegativeTtl) {
    misses_.erase(it);
    return std::nullopt;
  }
  return it->second.first;
}

void ReadState::cache_not_found(const std::string& real_path, ReadFileNotFound result,
                                Clock::TimePoint now) {
  std::lock_guard lock(mu_);
  misses_[real_path] = {std::move(result), now};
}

void ReadState::forget_not_found(const std::string& real_path) {
  std::lock_guard lock(mu_);
  misses_.erase(real_path);
}

DedupVerdict ReadState::check(const ReadKey& key, const fs::FileInfo& current) {
  std::lock_guard lock(mu_);
  const int next = last_key_ == key ? consecutive_ + 1 : 1;
  auto commit = [&](DedupVerdict::Kind kind, int count) {
    last_key_ = key;
    consecutive_ = next;
    return DedupVerdict{kind, count};
  };
  auto it = entries_.find(key);
  if (it != entries_.end() && it->second.version == current) {
    int hits = ++it->second.stub_hits;
    return commit(hits >= 2 ? DedupVerdict::kStubBlocked : DedupVerdict::kStub, hits + 1);
  }
  if (next >= 4) return commit(DedupVerdict::kRepeatBlocked, next);
  return {DedupVerdict::kRead, next};
}

void ReadState::record_served(const ReadKey& key, const fs::FileInfo& served) {
  std::lock_guard lock(mu_);
  entries_[key] = Entry{served, 0};
  consecutive_ = last_key_ == key ? consecutive_ + 1 : 1;
  last_key_ = key;
}

void ReadState::on_other_tool_call() {
  std::lock_guard lock(mu_);
  for (auto& [key, entry] : entries_) entry.stub_hits = 0;
  last_key_.reset();
  consecutive_ = 0;
  misses_.clear();
}

void ReadState::drop_path(const std::string& real_path) {
  std::lock_guard lock(mu_);
  for (auto it = entries_.begin(); it != entries_.end();) {
    it = it->first.real_path == real_path ? entries_.erase(it) : std::next(it);
  }
  if (last_key_ && last_key_->real_path == real_path) {
    last_key_.reset();
    consecutive_ = 0;
  }
  misses_.erase(real_path);
}

}  // namespace hermes::read_file
