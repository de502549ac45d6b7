// SPDX-License-Identifier: MIT
// read_file's per-session memory (docs/tools/read_file.md): the dedup
// stamps and repeat-read counters per (real path, offset, limit), and the
// 60-second negative cache of not-found results. Thread-safe. Bounded: past
// kMaxPaths paths (or kMaxRegions regions of one path) the least recently
// read go (a stub or a block counts as a read), which costs a later repeat
// of them a real read instead of the stub.
#pragma once

#include "core/clock.h"
#include "fs/file_system.h"
#include "registry/session.h"
#include "tools/read_file/read_file.h"

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace hermes::file_common {
class ReadTracker;
}  // namespace hermes::file_common

namespace hermes::read_file {

struct ReadKey {
  std::string real_path;
  int64_t offset = 1;
  int64_t limit = 2000;
  auto operator<=>(const ReadKey&) const = default;
};

// What the dedup and repeat guards decide before a read.
struct DedupVerdict {
  enum Kind {
    kRead,           // read it
    kStub,           // unchanged since the last read: the stub
    kStubBlocked,    // the stub again: BLOCKED
    kRepeatBlocked,  // 4th+ consecutive real read of the region: BLOCKED
  } kind = kRead;
  int count = 0;  // reads of this region in a row, this one included
};

class ReadState : public registry::SessionState {
 public:
  static constexpr bool kPerConversation = true;

  static constexpr size_t kMaxPaths = 4096;
  static constexpr size_t kMaxRegions = 16;
  static constexpr size_t kMaxMisses = 4096;

  ReadState() = default;
  ReadState(const ReadState&) = delete;
  ReadState& operator=(const ReadState&) = delete;
  // Unsubscribes from the tracker.
  ~ReadState() override;

  // Subscribes to `tracker` so a write/patch of a path drops its entries.
  // The tracker must outlive this state: in one session, it is created
  // first (so destroyed last); a conversation's lives in the session the
  // conversation shares.
  void attach(file_common::ReadTracker& tracker);

  // The cached not-found result for `real_path`, if younger than 60 s.
  std::optional<ReadFileNotFound> cached_not_found(const std::string& real_path,
                                                   Clock::TimePoint now);
  void cache_not_found(const std::string& real_path, ReadFileNotFound result, Clock::TimePoint now);
  void forget_not_found(const std::string& real_path);

  // Before a read of `key` at `current` (the file's metadata now). A stub
  // or a block counts as a read of the region; a kRead counts only once
  // served (binary and not-found results are not tracked).
  DedupVerdict check(const ReadKey& key, const fs::FileInfo& current);
  // After a served read of `key` at version `served`.
  void record_served(const ReadKey& key, const fs::FileInfo& served);

  void on_other_tool_call() override;

 private:
  // One region's dedup stamp. Its stub count holds only in the epoch it
  // was made in: another tool call starts a new epoch (O(1), not a sweep).
  struct Region {
    int64_t offset = 1;
    int64_t limit = 2000;
    fs::FileInfo version;
    int stub_hits = 0;
    uint64_t epoch = 0;
  };
  struct PathReads {
    std::vector<Region> regions;  // least recently read first
    uint64_t last_use = 0;
  };
  Region* touch(PathReads& reads, const ReadKey& key);
  void drop_path(const std::string& real_path);
  void evict_if_full();

  std::mutex mu_;
  std::atomic<bool> attached_ = false;
  file_common::ReadTracker* tracker_ = nullptr;       // mu_; set once attached
  uint64_t listener_ = 0;                             // mu_
  std::unordered_map<std::string, PathReads> reads_;  // mu_
  uint64_t epoch_ = 0;                                // mu_
  uint64_t uses_ = 0;                                 // mu_
  std::optional<ReadKey> last_key_;                   // mu_
  int consecutive_ = 0;                               // mu_
  std::map<std::string, std::pair<ReadFileNotFound, Clock::TimePoint>> misses_;  // mu_
};

}  // namespace hermes::read_file
