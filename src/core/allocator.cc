// SPDX-License-Identifier: MIT
#include "core/allocator.h"

#include "core/cpus.h"

#include <malloc.h>

#include <algorithm>

namespace hermes {

void tune_allocator() {
  ::mallopt(M_MMAP_THRESHOLD, 32 << 20);
  ::mallopt(M_TRIM_THRESHOLD, 64 << 20);
  ::mallopt(M_ARENA_MAX, static_cast<int>(std::max<size_t>(2, usable_cpus())));
}

void release_free_memory() { ::malloc_trim(0); }

}  // namespace hermes
