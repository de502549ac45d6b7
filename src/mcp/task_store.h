// SPDX-License-Identifier: MIT
// Tool calls that outlive their request (the tasks extension of the modern
// era). A call runs inline for a budget; if it has not finished by then it
// becomes a task: the request is answered with the task's handle and the work
// continues untouched, to be polled with tasks/get or stopped with
// tasks/cancel. Tasks belong to a principal: another principal's id reads as
// unknown. In memory for the process's lifetime. Thread-safe.
#pragma once

#include "json/json.h"
#include "registry/call_status.h"

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>
#include <variant>

namespace hermes::mcp {

struct TaskOptions {
  std::chrono::milliseconds inline_budget{5000};
  std::chrono::milliseconds ttl{std::chrono::hours(1)};
  std::chrono::milliseconds ttl_max{std::chrono::hours(24)};
  size_t max_live_per_principal = 64;
  size_t max_retained = 4096;
};

// What a call's work has of the task it may become. Once the call is a
// task, a question parks the task in `input_required` (tasks/get lists it
// under inputRequests, by `key`) until tasks/update answers it, the task
// is stopped or `timeout` passes (nullopt); until then `promoted()` is
// false and the call's own channel asks instead. `promote()` makes the
// call a task now, without waiting out the inline budget.
class TaskLink {
 public:
  virtual ~TaskLink() = default;
  virtual bool promoted() const = 0;
  virtual std::optional<Json> ask(const std::string& key, const std::string& method,
                                  const Json& params, std::chrono::milliseconds timeout,
                                  std::stop_token stop) = 0;
  virtual void promote() = 0;
};

// The work of one call: the CallToolResult it produces, under `stop`. An
// exception ends a task `failed` (a protocol-level error, not a tool's).
using TaskWork = std::function<Json(std::stop_token stop, TaskLink& link)>;

class TaskStore {
 public:
  explicit TaskStore(TaskOptions options) : options_(options) {}
  ~TaskStore() { stop_all(); }
  // Stops every running task, waits for it and forgets every task.
  void stop_all();
  TaskStore(const TaskStore&) = delete;
  TaskStore& operator=(const TaskStore&) = delete;

  struct Finished {  // done inline: the plain result,
    Json result;     // or the JSON-RPC error when `failed`
    bool failed = false;
  };
  struct Promoted {
    Json created;
  };                    // the CreateTaskResult to answer with
  struct Abandoned {};  // the request was cancelled inline
  using Outcome = std::variant<Finished, Promoted, Abandoned>;

  // Runs `work` for `principal`: inline until it finishes, `request_stop`
  // fires (the work is stopped: Abandoned) or the budget passes (Promoted;
  // `at_once` skips the budget). When the principal or the store is full the
  // call simply runs inline to the end. A running task's statusMessage tells
  // what `status` (when given) has seen of its output.
  Outcome run(const std::string& principal, const std::string& label, TaskWork work,
              std::stop_token request_stop, bool at_once,
              std::shared_ptr<const registry::CallStatus> status = nullptr);

  // tasks/get: the DetailedTask, or nullopt when unknown, expired or foreign.
  std::optional<Json> get(const std::string& principal, const std::string& task_id);
  // tasks/cancel: false when unknown, expired or foreign. Idempotent.
  bool cancel(const std::string& principal, const std::string& task_id);
  // tasks/update: each of `responses` that answers a pending question of
  // the task (by key; at most kMaxAnswerBytes as JSON) is delivered, any
  // other key ignored. False when unknown, expired or foreign.
  bool update(const std::string& principal, const std::string& task_id, const Json& responses);
  static constexpr size_t kMaxAnswerBytes = 16u << 10;
  // True while `principal` has a task that is not finished.
  bool has_live(const std::string& principal);

 private:
  struct Task;
  using Clock = std::chrono::system_clock;

  std::shared_ptr<Task> admit(const std::string& principal, const std::string& label,
                              std::shared_ptr<const registry::CallStatus> status);
  std::shared_ptr<Task> find_locked(const std::string& principal,
                                    const std::string& task_id);  // mu_ held
  void finish(Task& task, Json result, bool failed);
  Outcome settle_inline(Task& task);
  Json describe(const Task& task, bool detailed) const;  // task->mu held
  void expire_locked(Clock::time_point now);             // mu_ held

  const TaskOptions options_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<Task>> tasks_;  // mu_; by id
};

}  // namespace hermes::mcp
