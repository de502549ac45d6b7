// SPDX-License-Identifier: MIT
// The task toolset: hermes_task, hermes_task_detail, hermes_models and
// hermes_telemetry, built around one shared TaskService.
#pragma once

#include "registry/registry.h"
#include "registry/tool.h"
#include "tools/task/task_service.h"

#include <memory>
#include <vector>

namespace hermes::task {

ToolSpec hermes_task_spec(std::shared_ptr<TaskService> service);
ToolSpec hermes_task_detail_spec(std::shared_ptr<TaskService> service);
ToolSpec hermes_models_spec();
ToolSpec hermes_telemetry_spec();

// The four tools in the reference's order, sharing `service` (tests pass one
// with a fake runner and clock).
std::vector<ToolSpec> task_tool_specs(std::shared_ptr<TaskService> service);

}  // namespace hermes::task

namespace hermes {
// Registers the toolset with the real process runner and wall clock.
void register_task(Registry& registry);
}  // namespace hermes
