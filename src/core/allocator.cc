// SPDX-License-Identifier: MIT
#include "core/allocator.h"

#include <malloc.h>

namespace hermes {

void tune_allocator() {
  ::mallopt(M_MMAP_THRESHOLD, 4 << 20);
  ::mallopt(M_TRIM_THRESHOLD, 16 << 20);
}

}  // namespace hermes
