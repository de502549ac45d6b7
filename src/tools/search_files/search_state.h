// SPDX-License-Identifier: MIT
// Per-session state of search_files: the consecutive-search loop guard and
// the `Path not found:` negative cache and the engines found on a backend's
// target. All reset on any other tool call.
// Thread-safe.
#pragma once

#include "registry/session.h"
#include "tools/search_files/search_host.h"

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace hermes::search {

class SearchSessionState : public registry::SessionState {
 public:
  static constexpr bool kPerConversation = true;

  using Clock = std::chrono::steady_clock;
  static constexpr std::chrono::seconds kNotFoundTtl{60};

  // Records one search with loop-guard `key`; returns how many times in a
  // row this key has now been searched (1 for a new key).
  int record_search(const std::string& key);

  // The cached `Path not found:` message for `real_path`, if younger than
  // the TTL at `now`.
  std::optional<std::string> cached_not_found(const std::string& real_path, Clock::time_point now);
  void remember_not_found(const std::string& real_path, std::string message, Clock::time_point now);
  void forget_not_found(const std::string& real_path);

  // The engines on `backend`'s target: `look_up()`'s answer, kept until
  // another tool runs (the terminal may install or remove one).
  Engines engines_for(const std::shared_ptr<backend::Backend>& backend,
                      const std::function<Engines()>& look_up);

  void on_other_tool_call() override;

 private:
  struct Miss {
    std::string message;
    Clock::time_point at;
  };
  std::mutex mu_;
  std::string last_key_;                               // mu_
  int consecutive_ = 0;                                // mu_
  std::map<std::string, Miss> misses_;                 // mu_
  std::shared_ptr<backend::Backend> engines_backend_;  // mu_; whose engines_ these are
  Engines engines_;                                    // mu_
};

}  // namespace hermes::search
