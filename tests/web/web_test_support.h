// SPDX-License-Identifier: MIT
// Test seams for the web engine: a resolver with scripted answers.
#pragma once

#include "web/url_guard.h"

#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace hermes::web::testing {

// Answers from a table; a name may have a sequence of answers (one per
// lookup, the last repeating) to play DNS rebinding.
class FakeResolver final : public Resolver {
 public:
  void set(const std::string& host, std::vector<std::string> answers) {
    std::lock_guard lock(mu_);
    sequences_[host] = {std::move(answers)};
  }
  void then(const std::string& host, std::vector<std::string> answers) {
    std::lock_guard lock(mu_);
    sequences_[host].push_back(std::move(answers));
  }
  Result<std::vector<IpAddress>> resolve(const std::string& host) const override {
    ++calls_;
    std::lock_guard lock(mu_);
    auto it = sequences_.find(host);
    if (it == sequences_.end()) return Error::NotFound("no such host " + host);
    size_t n = served_[host]++;
    const auto& answers = it->second[std::min(n, it->second.size() - 1)];
    std::vector<IpAddress> out;
    for (const std::string& a : answers) out.push_back(*parse_ip(a));
    return out;
  }
  int calls() const { return calls_; }
  int calls_for(const std::string& host) const {
    std::lock_guard lock(mu_);
    auto it = served_.find(host);
    return it == served_.end() ? 0 : static_cast<int>(it->second);
  }

 private:
  mutable std::mutex mu_;
  std::map<std::string, std::vector<std::vector<std::string>>> sequences_;
  mutable std::map<std::string, size_t> served_;
  mutable std::atomic<int> calls_{0};
};

}  // namespace hermes::web::testing
