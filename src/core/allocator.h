// SPDX-License-Identifier: MIT
// The server's malloc settings, set once at start (the benches that time a
// tool's whole call set them too, so they measure what the server does).
// The hermes-tools binary and the benches link jemalloc where it is
// installed (not in sanitizer builds): per-thread caches make a call's few
// hundred small allocations cheap, where glibc's per-size caches of seven
// chunks overflow into its fast bins and every later allocation of 1 KiB or
// more sweeps them. The tests run on glibc's malloc.
#pragma once

namespace hermes {

// Whether malloc is jemalloc's in this program.
bool uses_jemalloc();

// Buffers up to 32 MiB (whole files, pages, diffs) come from the heap, and up
// to 64 MiB of freed heap stays mapped: glibc's own ceilings for the limits it
// adapts, fixed from the start. With its starting values every edit of a
// 150 KB file grew and trimmed the heap and page-faulted its buffers afresh;
// a lower fixed ceiling (4 MiB) made each 10 MB edit page-fault instead.
// One malloc arena per core (at least two) instead of glibc's eight per
// core: worker threads beyond the cores only contend for them, and each
// extra arena keeps its high-water mark resident after a burst of calls,
// which malloc_trim does not give back. Under jemalloc: nothing to set.
void tune_allocator();

// Hands the pages of freed memory back to the kernel (every arena: a worker
// thread's arena keeps what its calls freed, and the 64 MiB trim ceiling above
// keeps the heap's top). For a server that has gone quiet, so that its RSS
// after a burst of calls falls back to what its sessions hold; it takes the
// arenas' locks briefly, so not on a hot path. Under jemalloc: a purge of
// every arena's unused dirty pages.
void release_free_memory();

}  // namespace hermes
