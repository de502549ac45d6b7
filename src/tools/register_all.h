// SPDX-License-Identifier: MIT
// The tool table of the binary (register_all.cc).
#pragma once

#include "registry/registry.h"

namespace hermes::tools {

// Registers every tool the binary ships.
void register_all_tools(registry::Registry& registry);

}  // namespace hermes::tools
