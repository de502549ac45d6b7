// SPDX-License-Identifier: MIT
#include "mcp/task_store.h"

#include "core/strings.h"
#include "mcp/protocol.h"

#include <ctime>
#include <exception>
#include <vector>

namespace hermes::mcp {
namespace {

using std::chrono::duration_cast;
using std::chrono::milliseconds;

std::string iso_time(std::chrono::system_clock::time_point t) {
  std::time_t seconds = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

// The link of a call that runs inline without a task (the store was
// full): never promoted, so the call's own channel asks.
class NoTaskLink final : public TaskLink {
 public:
  bool promoted() const override { return false; }
  std::optional<Json> ask(const std::string&, const std::string&, const Json&,
                          std::chrono::milliseconds, std::stop_token) override {
    return std::nullopt;
  }
  void promote() override {}
};

// The failed task's error: the JSON-RPC error object.
Json internal_error(const std::string& what) {
  return {{"code", static_cast<int>(RpcError::kInternalError)},
          {"message", "Internal error: " + what}};
}

}  // namespace

struct TaskStore::Task final : TaskLink {
  std::string id;
  std::string principal;
  std::string label;
  std::shared_ptr<const registry::CallStatus> output;  // may be null
  Clock::time_point created = Clock::now();
  mutable std::mutex mu;
  std::condition_variable_any cv;
  Clock::time_point updated = created;  // mu
  std::string status = "working";       // mu
  bool done = false;                    // mu
  bool cancel_requested = false;        // mu
  bool became_task = false;             // mu: promoted; questions park it
  bool promote_asked = false;           // mu: the work asked to become a task now
  size_t asked = 0;                     // mu: questions asked without a key
  Json pending = Json::object();        // mu: {key: {method, params}} not yet answered
  std::map<std::string, Json> answers;  // mu: delivered by tasks/update, not yet taken
  Json result;                          // mu: CallToolResult, or the error when failed
  std::stop_source stop;
  std::thread thread;

  bool promoted() const override {
    std::lock_guard lock(mu);
    return became_task;
  }
  std::optional<Json> ask(const std::string& key, const std::string& method, const Json& params,
                          std::chrono::milliseconds timeout, std::stop_token stop) override;
  void promote() override {
    std::lock_guard lock(mu);
    promote_asked = true;
    cv.notify_all();
  }
};

std::optional<Json> TaskStore::Task::ask(const std::string& key, const std::string& method,
                                         const Json& params, std::chrono::milliseconds timeout,
                                         std::stop_token asker) {
  std::unique_lock lock(mu);
  if (!became_task || done) return std::nullopt;
  std::string name = key.empty() ? "q" + std::to_string(++asked) : key;
  // Two open questions under one key; an answer not yet taken still holds its key.
  while (pending.contains(name) || answers.contains(name)) name += "+";
  pending[name] = {{"method", method}, {"params", params}};
  status = "input_required";
  updated = Clock::now();
  cv.wait_for(lock, asker, timeout, [&] { return answers.contains(name) || cancel_requested; });
  pending.erase(name);
  if (pending.empty() && !done) status = "working";
  updated = Clock::now();
  auto answer = answers.find(name);
  if (answer == answers.end()) return std::nullopt;
  Json out = std::move(answer->second);
  answers.erase(answer);
  return out;
}

void TaskStore::stop_all() {
  std::map<std::string, std::shared_ptr<Task>> tasks;
  {
    std::lock_guard lock(mu_);
    tasks.swap(tasks_);
  }
  for (auto& [id, task] : tasks) task->stop.request_stop();
  for (auto& [id, task] : tasks) {
    if (task->thread.joinable()) task->thread.join();
  }
}

std::shared_ptr<TaskStore::Task> TaskStore::admit(
    const std::string& principal, const std::string& label,
    std::shared_ptr<const registry::CallStatus> status) {
  std::lock_guard lock(mu_);
  expire_locked(Clock::now());
  size_t live = 0;
  for (auto& [id, task] : tasks_) {
    std::lock_guard task_lock(task->mu);
    if (task->principal == principal && !task->done) ++live;
  }
  if (live >= options_.max_live_per_principal || tasks_.size() >= options_.max_retained) {
    return nullptr;
  }
  auto task = std::make_shared<Task>();
  task->id = "tk_" + random_hex(16);
  task->principal = principal;
  task->label = label;
  task->output = std::move(status);
  return task;
}

void TaskStore::finish(Task& task, Json result, bool failed) {
  std::lock_guard lock(task.mu);
  task.done = true;
  task.updated = Clock::now();
  if (task.cancel_requested || task.stop.stop_requested()) {
    task.status = "cancelled";
  } else {
    task.status = failed ? "failed" : "completed";
    task.result = std::move(result);
  }
  task.cv.notify_all();
}

TaskStore::Outcome TaskStore::run(const std::string& principal, const std::string& label,
                                  TaskWork work, std::stop_token request_stop, bool at_once,
                                  std::shared_ptr<const registry::CallStatus> status) {
  std::shared_ptr<Task> task = admit(principal, label, std::move(status));
  if (!task) {
    NoTaskLink inline_only;
    try {
      return Finished{work(request_stop, inline_only), false};
    } catch (const std::exception& e) {
      return Finished{internal_error(e.what()), true};
    }
  }
  // A call that becomes a task at once is one from its first question on.
  task->became_task = at_once;
  task->thread = std::thread([this, task, work = std::move(work)] {
    try {
      finish(*task, work(task->stop.get_token(), *task), false);
    } catch (const std::exception& e) {
      finish(*task, internal_error(e.what()), true);
    }
  });
  // Registered before the lock is taken: it may run at once, and it locks.
  std::stop_callback wake(request_stop, [&task] {
    std::lock_guard inner(task->mu);
    task->cv.notify_all();
  });
  Json created;
  {
    std::unique_lock lock(task->mu);
    auto deadline =
        std::chrono::steady_clock::now() + (at_once ? milliseconds(0) : options_.inline_budget);
    task->cv.wait_until(lock, deadline, [&] {
      return task->done || task->promote_asked || request_stop.stop_requested();
    });
    if (!task->done && !request_stop.stop_requested()) {
      task->became_task = true;
      created = describe(*task, false);
    }
  }
  if (created.is_null()) return settle_inline(*task);
  std::lock_guard store_lock(mu_);
  tasks_.emplace(task->id, task);
  return Promoted{std::move(created)};
}

TaskStore::Outcome TaskStore::settle_inline(Task& task) {
  task.stop.request_stop();  // no-op when it finished; stops it when the request went away
  task.thread.join();
  if (task.status == "cancelled") return Abandoned{};
  return Finished{std::move(task.result), task.status == "failed"};
}

Json TaskStore::describe(const Task& task, bool detailed) const {
  auto now = Clock::now();
  auto lived = duration_cast<milliseconds>((task.done ? task.updated : now) - task.created);
  auto ttl = std::min(lived + options_.ttl, options_.ttl_max);
  auto running_s = duration_cast<std::chrono::seconds>(now - task.created).count();
  Json out;
  out["taskId"] = task.id;
  out["status"] = task.status;
  out["statusMessage"] = task.done
                             ? task.label + ": " + task.status
                             : registry::running_status(task.label, running_s, task.output.get());
  out["createdAt"] = iso_time(task.created);
  out["lastUpdatedAt"] = iso_time(task.done ? task.updated : now);
  out["ttlMs"] = ttl.count();
  out["pollIntervalMs"] = running_s < 30 ? 1000 : 5000;
  if (detailed && task.status == "input_required") out["inputRequests"] = task.pending;
  if (detailed && task.status == "completed") out["result"] = task.result;
  if (detailed && task.status == "failed") out["error"] = task.result;
  return out;
}

void TaskStore::expire_locked(Clock::time_point now) {
  std::vector<std::shared_ptr<Task>> expired;
  for (auto it = tasks_.begin(); it != tasks_.end();) {
    Task& task = *it->second;
    std::unique_lock lock(task.mu);
    auto lived = (task.done ? task.updated : now) - task.created;
    auto ttl = std::min(duration_cast<milliseconds>(lived) + options_.ttl, options_.ttl_max);
    if (now - task.created <= ttl) {
      ++it;
    } else if (!task.done) {
      task.cancel_requested = true;  // past the longest life: stop it, drop it once settled
      task.stop.request_stop();
      ++it;
    } else {
      lock.unlock();
      expired.push_back(it->second);
      it = tasks_.erase(it);
    }
  }
  for (auto& task : expired) task->thread.join();  // finished already: returns at once
}

std::shared_ptr<TaskStore::Task> TaskStore::find_locked(const std::string& principal,
                                                        const std::string& task_id) {
  auto it = tasks_.find(task_id);
  if (it == tasks_.end() || it->second->principal != principal) return nullptr;
  return it->second;
}

std::optional<Json> TaskStore::get(const std::string& principal, const std::string& task_id) {
  std::lock_guard lock(mu_);
  expire_locked(Clock::now());
  std::shared_ptr<Task> task = find_locked(principal, task_id);
  if (!task) return std::nullopt;
  std::lock_guard task_lock(task->mu);
  return describe(*task, true);
}

bool TaskStore::cancel(const std::string& principal, const std::string& task_id) {
  std::lock_guard lock(mu_);
  std::shared_ptr<Task> task = find_locked(principal, task_id);
  if (!task) return false;
  std::lock_guard task_lock(task->mu);
  if (!task->done) {
    task->cancel_requested = true;
    task->stop.request_stop();
    task->cv.notify_all();
  }
  return true;
}

bool TaskStore::update(const std::string& principal, const std::string& task_id,
                       const Json& responses) {
  std::lock_guard lock(mu_);
  std::shared_ptr<Task> task = find_locked(principal, task_id);
  if (!task) return false;
  std::lock_guard task_lock(task->mu);
  for (const auto& [key, answer] : responses.items()) {
    if (!task->pending.contains(key) || dump_json(answer).size() > kMaxAnswerBytes) continue;
    task->answers[key] = answer;
    // Off the list before the ack: a tasks/get right after it must not show
    // the question again while its asker has yet to wake.
    task->pending.erase(key);
  }
  if (task->pending.empty() && !task->done && task->status == "input_required") {
    task->status = "working";
  }
  task->updated = Clock::now();
  task->cv.notify_all();
  return true;
}

bool TaskStore::has_live(const std::string& principal) {
  std::lock_guard lock(mu_);
  for (auto& [id, task] : tasks_) {
    std::lock_guard task_lock(task->mu);
    if (task->principal == principal && !task->done) return true;
  }
  return false;
}

}  // namespace hermes::mcp
