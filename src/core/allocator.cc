// SPDX-License-Identifier: MIT
#include "core/allocator.h"

#include <malloc.h>

namespace hermes {

void tune_allocator() {
  ::mallopt(M_MMAP_THRESHOLD, 32 << 20);
  ::mallopt(M_TRIM_THRESHOLD, 64 << 20);
}

}  // namespace hermes
