// SPDX-License-Identifier: MIT
// hermes_task and hermes_task_detail on typed values: the reference's checks
// in order, provider resolution, the agent run and its classification, the
// auth.json write-back, export extraction and the run cache.
#pragma once

#include "core/result.h"
#include "json/json.h"
#include "tools/task/agent_runner.h"
#include "tools/task/task_cache.h"
#include "tools/task/task_config.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <stop_token>
#include <string>
#include <variant>

namespace hermes::task {

struct TaskArgs {
  std::string prompt;    // untrimmed
  std::string provider;  // empty or "auto" → auto-pick
  std::string model;
  int64_t timeout_seconds = 300;  // already clamped to 10..1800 by the edge
  std::string cwd;
  std::string toolsets;
  int64_t max_turns = 500;
  bool full_output = false;  // output_mode == "full"
};

struct RunInfo {
  std::optional<int64_t> exit_code;  // null for spawn_failed
  int64_t duration_ms = 0;
};

// `{ok:false, error, error_detail, …}`: `code` is the contract's name
// (`busy`, `no_credential`…), `failure` its ErrorCode and the detail text.
struct TaskError {
  std::string code;
  Error failure;
  std::optional<RunInfo> run;         // adds exit_code and duration_ms
  std::optional<int64_t> prompt_len;  // prompt_too_long only
  std::optional<int64_t> max_prompt_len;
};

// A TaskError whose ErrorCode follows from its contract `code`.
TaskError task_error(std::string code, std::string detail);

struct TaskSuccess {
  std::string provider;
  std::string model;
  std::string task_id;
  OutputMode mode = OutputMode::kDigest;
  std::string result;  // capped on a code-point boundary
  bool truncated = false;
  std::optional<int64_t> exit_code;
  int64_t duration_ms = 0;
  std::optional<std::string> session_id;
  std::optional<Digest> digest;  // digest mode (null when no export)
  Json tool_calls;               // full mode; null → field omitted
};

using TaskOutcome = std::variant<TaskSuccess, TaskError>;

struct DetailArgs {
  std::string task_id;
  std::string session_id;
  int64_t max_bytes = 0;  // > 0 caps `result`
};

struct DetailSuccess {
  TaskRecord record;
  bool cached = true;
};

using DetailOutcome = std::variant<DetailSuccess, TaskError>;

struct TaskDeps {
  std::shared_ptr<AgentRunner> runner;
  std::function<int64_t()> now_ms;  // epoch milliseconds
};

// One per server (shared by every session): it owns the concurrency flag,
// so a second hermes_task while one runs gets `busy`, as in the reference.
// Thread-safe.
class TaskService {
 public:
  explicit TaskService(TaskDeps deps);

  TaskOutcome run_task(const TaskArgs& args, const TaskConfig& config, std::stop_token stop);
  DetailOutcome detail(const DetailArgs& args, const TaskConfig& config, std::stop_token stop);

 private:
  struct Resolved {
    std::string provider;
    std::string model;
    std::string cwd;  // real path, or empty
  };
  struct Attempt;

  TaskOutcome dispatch(const TaskArgs& args, const TaskConfig& config, std::stop_token stop,
                       Attempt& attempt);
  std::variant<Resolved, TaskError> resolve(const TaskArgs& args, const TaskConfig& config,
                                            Attempt& attempt);
  AgentRun build_run(const TaskArgs& args, const Resolved& target, const TaskConfig& config,
                     std::stop_token stop);
  TaskOutcome finish_success(const TaskArgs& args, const Resolved& target, const AgentResult& run,
                             const TaskConfig& config, std::stop_token stop);
  TaskError run_failure(const AgentResult& run, const Resolved& target, const TaskArgs& args,
                        const TaskConfig& config);
  bool supports_in_flag(const TaskConfig& config, std::stop_token stop);
  std::string new_task_id();

  TaskDeps deps_;
  std::atomic<bool> busy_{false};
  std::mutex mu_;
  std::mt19937_64 rng_;                  // mu_
  std::map<std::string, bool> in_flag_;  // mu_: agent binary → `chat --in` known
};

}  // namespace hermes::task
