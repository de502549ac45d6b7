// SPDX-License-Identifier: MIT
// The task toolset: hermes_task, hermes_task_detail, hermes_models and
// hermes_telemetry. Each tool's typed arguments, outcome and handler; the
// JSON shapes live in task_json.cc, detail_json.cc, models_json.cc and
// telemetry_json.cc. A failure is a `TaskError` output (its JSON is
// `{ok:false, error, error_detail, …}`), named by `task_failure`.
#pragma once

#include "registry/registry.h"
#include "registry/tool.h"
#include "tools/task/models_catalog.h"
#include "tools/task/task_service.h"
#include "tools/task/telemetry.h"

#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace hermes::task {

// hermes_task: runs the agent on one prompt (TaskArgs are its parameters).
Result<TaskOutcome> hermes_task(TaskService& service, const TaskArgs& params,
                                registry::CallContext& ctx);

// hermes_task_detail: a prior run from the cache or a live session export;
// `result` already capped at `max_bytes`.
Result<DetailOutcome> hermes_task_detail(TaskService& service, const DetailArgs& params,
                                         registry::CallContext& ctx);

struct ModelsParams {
  std::string provider;           // trimmed; empty: every provider
  std::string input_type;         // trimmed; empty: no filter
  int64_t limit = 10;             // models listed per provider
  std::string models_cache_path;  // trimmed; empty: the configured one
};

struct ModelsListing {
  Catalog catalog;          // filtered
  size_t limit = 10;        // models listed per provider
  std::string cache_error;  // why the models cache was not used, or empty
};

using ModelsOutput = std::variant<ModelsListing, TaskError>;

// hermes_models: the catalog from the models cache, auth.json and the
// capability map, filtered.
Result<ModelsOutput> hermes_models(const ModelsParams& params, registry::CallContext& ctx);

// hermes_telemetry: aggregates the task cache over a window (no failures).
Result<TelemetryReport> hermes_telemetry(const TelemetryWindow& params, registry::CallContext& ctx);

// The failure an output stands for, or nullptr for a success.
template <class Success>
const Error* task_failure(const std::variant<Success, TaskError>& output) {
  const auto* error = std::get_if<TaskError>(&output);
  return error ? &error->failure : nullptr;
}

registry::ToolSpec hermes_task_spec(std::shared_ptr<TaskService> service);
registry::ToolSpec hermes_task_detail_spec(std::shared_ptr<TaskService> service);
registry::ToolSpec hermes_models_spec();
registry::ToolSpec hermes_telemetry_spec();

// The four tools in the reference's order, sharing `service` (tests pass one
// with a fake runner and clock).
std::vector<registry::ToolSpec> task_tool_specs(std::shared_ptr<TaskService> service);

// Registers the toolset with the real process runner and wall clock.
void register_task(registry::Registry& registry);

}  // namespace hermes::task
