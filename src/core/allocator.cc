// SPDX-License-Identifier: MIT
#include "core/allocator.h"

#include <malloc.h>

#include <algorithm>
#include <thread>

namespace hermes {

void tune_allocator() {
  ::mallopt(M_MMAP_THRESHOLD, 32 << 20);
  ::mallopt(M_TRIM_THRESHOLD, 64 << 20);
  ::mallopt(M_ARENA_MAX, static_cast<int>(std::max(2u, std::thread::hardware_concurrency())));
}

void release_free_memory() { ::malloc_trim(0); }

}  // namespace hermes
