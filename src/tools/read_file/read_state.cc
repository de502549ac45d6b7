// SPDX-License-Identifier: MIT
// Dedup stamps, repeat counters and the negative cache, all under one mutex
// per session.
#include "tools/read_file/read_state.h"

#include "tools/file_common/read_tracker.h"

#include <algorithm>

namespace hermes::read_file {
namespace {
constexpr auto kNegativeTtl = std::chrono::seconds(60);
}  // namespace

void ReadState::attach(file_common::ReadTracker& tracker) {
  // A load first: every read asks, and only the first one subscribes.
  if (attached_.load(std::memory_order_acquire) || attached_.exchange(true)) return;
  uint64_t id = tracker.add_write_listener([this](const std::string& path) { drop_path(path); });
  std::lock_guard lock(mu_);
  tracker_ = &tracker;
  listener_ = id;
}

ReadState::~ReadState() {
  if (tracker_ != nullptr) tracker_->remove_write_listener(listener_);
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
  if (misses_.size() >= kMaxMisses) {
    std::erase_if(misses_,
                  [&](const auto& miss) { return now - miss.second.second >= kNegativeTtl; });
    if (misses_.size() >= kMaxMisses) misses_.clear();  // thousands of fresh misses: start over
  }
  misses_[real_path] = {std::move(result), now};
}

void ReadState::forget_not_found(const std::string& real_path) {
  std::lock_guard lock(mu_);
  misses_.erase(real_path);
}

// The region `key` names, moved to the back (the most recently read end)
// and the path marked used; null when the path has no such region.
ReadState::Region* ReadState::touch(PathReads& reads, const ReadKey& key) {
  auto& regions = reads.regions;
  auto it = std::find_if(regions.begin(), regions.end(), [&](const Region& region) {
    return region.offset == key.offset && region.limit == key.limit;
  });
  reads.last_use = ++uses_;
  if (it == regions.end()) return nullptr;
  std::rotate(it, it + 1, regions.end());
  return &regions.back();
}

DedupVerdict ReadState::check(const ReadKey& key, const fs::FileInfo& current) {
  std::lock_guard lock(mu_);
  const int next = last_key_ == key ? consecutive_ + 1 : 1;
  auto commit = [&](DedupVerdict::Kind kind, int count) {
    last_key_ = key;
    consecutive_ = next;
    return DedupVerdict{kind, count};
  };
  auto it = reads_.find(key.real_path);
  Region* region = it == reads_.end() ? nullptr : touch(it->second, key);
  if (region && region->version == current) {
    if (region->epoch != epoch_) region->stub_hits = 0;
    region->epoch = epoch_;
    int hits = ++region->stub_hits;
    return commit(hits >= 2 ? DedupVerdict::kStubBlocked : DedupVerdict::kStub, hits + 1);
  }
  if (next >= 4) return commit(DedupVerdict::kRepeatBlocked, next);
  return {DedupVerdict::kRead, next};
}

void ReadState::record_served(const ReadKey& key, const fs::FileInfo& served) {
  std::lock_guard lock(mu_);
  auto it = reads_.find(key.real_path);
  if (it == reads_.end()) {
    evict_if_full();
    it = reads_.try_emplace(key.real_path).first;
  }
  PathReads& reads = it->second;
  const Region stamp{key.offset, key.limit, served, 0, epoch_};
  if (Region* region = touch(reads, key)) {
    *region = stamp;
  } else {
    if (reads.regions.size() >= kMaxRegions) reads.regions.erase(reads.regions.begin());
    reads.regions.push_back(stamp);
  }
  consecutive_ = last_key_ == key ? consecutive_ + 1 : 1;
  last_key_ = key;
}

// Past kMaxPaths, the less recently read half goes (amortised O(1) a read).
void ReadState::evict_if_full() {
  if (reads_.size() < kMaxPaths) return;
  std::vector<uint64_t> uses;
  uses.reserve(reads_.size());
  for (const auto& [path, reads] : reads_) uses.push_back(reads.last_use);
  auto middle = uses.begin() + static_cast<std::ptrdiff_t>(uses.size() / 2);
  std::nth_element(uses.begin(), middle, uses.end());
  const uint64_t cutoff = *middle;
  std::erase_if(reads_, [&](const auto& entry) { return entry.second.last_use < cutoff; });
}

void ReadState::on_other_tool_call() {
  std::lock_guard lock(mu_);
  ++epoch_;
  last_key_.reset();
  consecutive_ = 0;
  misses_.clear();
}

void ReadState::drop_path(const std::string& real_path) {
  std::lock_guard lock(mu_);
  reads_.erase(real_path);
  if (last_key_ && last_key_->real_path == real_path) {
    last_key_.reset();
    consecutive_ = 0;
  }
  misses_.erase(real_path);
}

}  // namespace hermes::read_file
