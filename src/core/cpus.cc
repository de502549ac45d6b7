// SPDX-License-Identifier: MIT
#include "core/cpus.h"

#include <sched.h>

#include <algorithm>
#include <thread>

namespace hermes {

size_t usable_cpus() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(CPU_COUNT(&set), 1);
  return std::max(std::thread::hardware_concurrency(), 1u);
}

}  // namespace hermes
