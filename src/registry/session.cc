// SPDX-License-Identifier: MIT
#include "registry/session.h"

namespace hermes::registry {

Session::~Session() {
  std::lock_guard lock(mu_);
  for (auto it = order_.rbegin(); it != order_.rend(); ++it) states_.at(*it)->on_session_end();
  for (auto it = order_.rbegin(); it != order_.rend(); ++it) states_.erase(*it);
}

std::string Session::cwd() const {
  if (shared_ != nullptr) return shared_->cwd();
  std::lock_guard lock(mu_);
  return cwd_;
}

void Session::set_cwd(std::string cwd) {
  if (shared_ != nullptr) return shared_->set_cwd(std::move(cwd));
  std::lock_guard lock(mu_);
  cwd_ = std::move(cwd);
}

void Session::notify_other_tool_call() {
  std::vector<SessionState*> states;
  {
    std::lock_guard lock(mu_);
    for (auto& [type, state] : states_) states.push_back(state.get());
  }
  for (SessionState* state : states) state->on_other_tool_call();
  if (shared_ != nullptr) shared_->notify_other_tool_call();
}

}  // namespace hermes::registry
