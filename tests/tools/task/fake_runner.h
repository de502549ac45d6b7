// SPDX-License-Identifier: MIT
// An AgentRunner that records requests and answers from a test's function.
#pragma once

#include "tools/task/agent_runner.h"

#include <functional>
#include <mutex>
#include <vector>

namespace hermes::task::testing {

class FakeRunner final : public AgentRunner {
 public:
  using Respond = std::function<AgentResult(const AgentRun&)>;
  explicit FakeRunner(Respond respond) : respond_(std::move(respond)) {}

  AgentResult run(const AgentRun& request, std::stop_token) override {
    {
      std::lock_guard lock(mu_);
      requests_.push_back(request);
    }
    return respond_(request);
  }
  std::vector<AgentRun> requests() const {
    std::lock_guard lock(mu_);
    return requests_;
  }

 private:
  Respond respond_;
  mutable std::mutex mu_;
  std::vector<AgentRun> requests_;  // mu_
};

inline AgentResult ok_result(std::string out) {
  AgentResult r;
  r.exit_code = 0;
  r.stdout_text = std::move(out);
  r.duration_ms = 5;
  return r;
}

}  // namespace hermes::task::testing
