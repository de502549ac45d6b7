// SPDX-License-Identifier: MIT
// Wires the task toolset into the registry with the real runner and clock.
#include "tools/task/agent_runner.h"
#include "tools/task/iso_time.h"
#include "tools/task/task_tools.h"

namespace hermes::task {

std::vector<registry::ToolSpec> task_tool_specs(std::shared_ptr<TaskService> service) {
  std::vector<registry::ToolSpec> specs;
  specs.push_back(hermes_task_spec(service));
  specs.push_back(hermes_task_detail_spec(service));
  specs.push_back(hermes_models_spec());
  specs.push_back(hermes_telemetry_spec());
  return specs;
}

void register_task(registry::Registry& registry) {
  auto service = std::make_shared<TaskService>(
      TaskDeps{.runner = make_process_runner(), .now_ms = now_epoch_ms});
  for (registry::ToolSpec& spec : task_tool_specs(service)) registry.add(std::move(spec));
}

}  // namespace hermes::task
