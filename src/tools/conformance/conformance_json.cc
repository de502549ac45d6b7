// SPDX-License-Identifier: MIT
#include "tools/conformance/conformance.h"

namespace hermes::conformance {

void register_conformance(registry::Registry& registry) {
  register_content_fixtures(registry);
  register_client_fixtures(registry);
  register_input_required_fixtures(registry);
  register_resource_fixtures(registry);
  register_prompt_fixtures(registry);
  register_task_fixtures(registry);
}

}  // namespace hermes::conformance
