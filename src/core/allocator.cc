// SPDX-License-Identifier: MIT
#include "core/allocator.h"

#include <malloc.h>

namespace hermes {

void tune_allocator() {
  ::mallopt(M_MMAP_THRESHOLD, 32 << 20);
  ::mallopt(M_TRIM_THRESHOLD, 64 << 20);
}

void release_free_memory() { ::malloc_trim(0); }

}  // namespace hermes
