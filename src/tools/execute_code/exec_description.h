// SPDX-License-Identifier: MIT
// execute_code's description, built per session: the tools scripts can
// really call, with their signatures, and the limits and the place scripts
// run as configured (docs/tools/execute_code.md).
#pragma once

#include "registry/registry.h"
#include "registry/tool.h"

#include <string>

namespace hermes::execute_code {

std::string describe(const registry::Registry& registry, const registry::Services& services);

}  // namespace hermes::execute_code
