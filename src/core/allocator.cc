// SPDX-License-Identifier: MIT
#include "core/allocator.h"

#include "core/cpus.h"

#include <malloc.h>

#include <algorithm>

// jemalloc's control call, present when the program links jemalloc (the
// hermes-tools binary and the benches do, see src/cli/CMakeLists.txt); weak,
// so that the tests, which do not, keep glibc's malloc.
extern "C" int mallctl(const char* name, void* oldp, size_t* oldlenp, void* newp, size_t newlen)
    __attribute__((weak));

namespace hermes {
namespace {

// MALLCTL_ARENAS_ALL: the pseudo-arena that stands for every arena.
constexpr const char* kPurgeEveryArena = "arena.4096.purge";

}  // namespace

bool uses_jemalloc() { return mallctl != nullptr; }

void tune_allocator() {
  if (uses_jemalloc()) return;  // its defaults are what the settings below reach for
  ::mallopt(M_MMAP_THRESHOLD, 32 << 20);
  ::mallopt(M_TRIM_THRESHOLD, 64 << 20);
  ::mallopt(M_ARENA_MAX, static_cast<int>(std::max<size_t>(2, usable_cpus())));
}

void release_free_memory() {
  if (uses_jemalloc()) {
    mallctl(kPurgeEveryArena, nullptr, nullptr, nullptr, 0);
    return;
  }
  ::malloc_trim(0);
}

}  // namespace hermes
