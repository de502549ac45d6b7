// SPDX-License-Identifier: MIT
// Per-session state of search_files: the consecutive-search loop guard and
// the `Path not found:` negative cache. Both reset on any other tool call.
// Thread-safe.
#pragma once

#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "registry/session.h"

namespace hermes::search {

class SearchSessionState : public SessionState {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::chrono::seconds kNotFoundTtl{60};

  // Records one search with loop-guard `key`; returns how many times in a
  // row this key has now been searched (1 for a new key).
  int record_search(const std::string& key);

  // The cached `Path not found:` message for `real_path`, if younger than
  // the TTL at `now`.
  std::optional<std::string> cached_not_found(const std::string& real_path, Clock::time_point now);
  void remember_not_found(const std::string& real_path, std::string message,
                          Clock::time_point now);
  void forget_not_found(const std::string& real_path);

  void on_other_tool_call() override;

 private:
  struct Miss {
    std::string message;
    Clock::time_point at;
  };
  std::mutex mu_;
  std::string last_key_;                 // mu_
  int consecutive_ = 0;                  // mu_
  std::map<std::string, Miss> misses_;   // mu_
};

}  // namespace hermes::search
