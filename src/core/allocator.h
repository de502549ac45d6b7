// SPDX-License-Identifier: MIT
// The server's malloc settings, set once at start (the benches that time a
// tool's whole call set them too, so they measure what the server does).
#pragma once

namespace hermes {

// Buffers up to 4 MiB (whole files, pages, diffs) come from the heap, and up
// to 16 MiB of freed heap stays mapped. With glibc's defaults every edit of a
// 150 KB file grew and trimmed the heap and page-faulted its buffers afresh.
void tune_allocator();

}  // namespace hermes
