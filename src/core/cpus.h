// SPDX-License-Identifier: MIT
// How many CPUs this process may run on: what sizes per-core resources
// (malloc arenas, the call pool's workers for brief calls).
#pragma once

#include <cstddef>

namespace hermes {

// The CPUs in this process's affinity mask (a container or taskset may
// allow fewer than the machine has); at least 1.
size_t usable_cpus();

}  // namespace hermes
