// SPDX-License-Identifier: MIT
// Per-session patch counters: consecutive misses per path (the third-miss
// hint) and consecutive malformed calls. Thread-safe.
#pragma once

#include "registry/session.h"

#include <map>
#include <mutex>
#include <string>

namespace hermes::patch {

class PatchState : public registry::SessionState {
 public:
  static constexpr bool kPerConversation = true;

  // Counts one more consecutive "Could not find" miss on `path`; returns the count.
  int record_miss(const std::string& path) {
    std::lock_guard lock(mu_);
    return ++misses_[path];
  }
  void record_success(const std::string& path) {
    std::lock_guard lock(mu_);
    misses_.erase(path);
    malformed_ = 0;
  }
  // Counts one more consecutive malformed call; returns the count.
  int record_malformed() {
    std::lock_guard lock(mu_);
    return ++malformed_;
  }
  void record_well_formed() {
    std::lock_guard lock(mu_);
    malformed_ = 0;
  }

 private:
  std::mutex mu_;
  std::map<std::string, int> misses_;  // mu_
  int malformed_ = 0;                  // mu_
};

}  // namespace hermes::patch
