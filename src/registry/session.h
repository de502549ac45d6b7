// SPDX-License-Identifier: MIT
// One MCP connection is one session. It owns the per-session state of every
// tool (read stamps, loop counters, negative caches, background processes…)
// as typed slots, so a tool adds its own state without touching this file.
// Thread-safe: slot creation and cwd are mutex-guarded; each state type
// guards its own fields.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <typeindex>
#include <vector>

namespace hermes::registry {

// Base of every per-session tool state.
class SessionState {
 public:
  // True for a state that belongs to one conversation with the model (read
  // dedup, loop guards, miss counters): a conversation Session keeps its own
  // and hands every other state to the session it shares.
  static constexpr bool kPerConversation = false;

  virtual ~SessionState() = default;
  // Called by the dispatcher before a call to any tool but the reading ones
  // (`ToolSpec::keeps_loop_counters`): loop counters and negative caches
  // reset here.
  virtual void on_other_tool_call() {}
  // Called on every state, newest first, when the session ends and before
  // any state is destroyed: a state stops here what may still use another
  // state (background jobs and the terminal's shell snapshot).
  virtual void on_session_end() {}
};

class Session {
 public:
  explicit Session(std::string id) : id_(std::move(id)) {}
  // One conversation inside `shared`, which must outlive it: HTTP's
  // 2026-07-28 wire, where the calls of one principal share a workspace
  // (background processes, read stamps, the cwd) but not what a guard
  // remembers of one conversation (`SessionState::kPerConversation`).
  Session(std::string id, Session& shared) : id_(std::move(id)), shared_(&shared) {}
  // Ends every state (`on_session_end`), then destroys them in reverse
  // creation order (their destructors stop what the session started:
  // scripts, anything not ended yet).
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  const std::string& id() const { return id_; }

  // The state of type `T`, created (default-constructed) on first use. The
  // reference stays valid for the session's lifetime.
  template <class T>
  T& state() {
    if constexpr (!T::kPerConversation) {
      if (shared_ != nullptr) return shared_->state<T>();
    }
    std::lock_guard lock(mu_);
    auto it = states_.find(std::type_index(typeid(T)));
    if (it != states_.end()) return static_cast<T&>(*it->second);
    auto created = std::make_unique<T>();
    T& ref = *created;
    order_.push_back(std::type_index(typeid(T)));
    states_.emplace(std::type_index(typeid(T)), std::move(created));
    return ref;
  }

  // The working directory recorded by the terminal tool (empty until set);
  // a conversation's is its shared session's.
  std::string cwd() const;
  void set_cwd(std::string cwd);

  // Dispatcher hook: a call to a tool that resets the loop counters (a
  // conversation's, and those of the session it shares).
  void notify_other_tool_call();

 private:
  const std::string id_;
  Session* const shared_ = nullptr;  // set: a conversation inside it
  mutable std::mutex mu_;
  std::map<std::type_index, std::unique_ptr<SessionState>> states_;  // mu_
  std::vector<std::type_index> order_;                               // mu_
  std::string cwd_;                                                  // mu_
};

}  // namespace hermes::registry
