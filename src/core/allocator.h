// SPDX-License-Identifier: MIT
// The server's malloc settings, set once at start (the benches that time a
// tool's whole call set them too, so they measure what the server does).
#pragma once

namespace hermes {

// Buffers up to 32 MiB (whole files, pages, diffs) come from the heap, and up
// to 64 MiB of freed heap stays mapped: glibc's own ceilings for the limits it
// adapts, fixed from the start. With its starting values every edit of a
// 150 KB file grew and trimmed the heap and page-faulted its buffers afresh;
// a lower fixed ceiling (4 MiB) made each 10 MB edit page-fault instead.
void tune_allocator();

}  // namespace hermes
