// SPDX-License-Identifier: MIT
#include "tools/search_files/search_state.h"

namespace hermes::search {

int SearchSessionState::record_search(const std::string& key) {
  std::lock_guard lock(mu_);
  if (consecutive_ > 0 && key == last_key_) return ++consecutive_;
  last_key_ = key;
  return consecutive_ = 1;
}

std::optional<std::string> SearchSessionState::cached_not_found(const std::string& real_path,
                                                                Clock::time_point now) {
  std::lock_guard lock(mu_);
  auto it = misses_.find(real_path);
  if (it == misses_.end()) return std::nullopt;
  if (now - it->second.at >= kNotFoundTtl) {
    misses_.erase(it);
    return std::nullopt;
  }
  return it->second.message;
}

void SearchSessionState::remember_not_found(const std::string& real_path, std::string message,
                                            Clock::time_point now) {
  std::lock_guard lock(mu_);
  misses_[real_path] = Miss{std::move(message), now};
}

void SearchSessionState::forget_not_found(const std::string& real_path) {
  std::lock_guard lock(mu_);
  misses_.erase(real_path);
}

Engines SearchSessionState::engines_for(const std::shared_ptr<backend::Backend>& backend,
                                        const std::function<Engines()>& look_up) {
  {
    std::lock_guard lock(mu_);
    if (engines_backend_ == backend) return engines_;
  }
  Engines found = look_up();  // a round trip: not under the lock
  // Nothing found may be a failed lookup: asked again next time.
  if (found.rg.empty() && found.grep.empty() && found.find.empty()) return found;
  std::lock_guard lock(mu_);
  engines_backend_ = backend;
  engines_ = found;
  return found;
}

void SearchSessionState::on_other_tool_call() {
  std::lock_guard lock(mu_);
  engines_backend_.reset();
  last_key_.clear();
  consecutive_ = 0;
  misses_.clear();
}

}  // namespace hermes::search
