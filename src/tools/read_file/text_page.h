// SPDX-License-Identifier: MIT
// One page of a text file rendered `cat -n` style (`N|text`), streamed so a
// 400 MB file (or a 400 MB single line) costs one pass and bounded memory:
// pagination, the per-line clamp, the character budget, merge-conflict count.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace hermes::read_file {

struct PageRequest {
  int64_t offset = 1;              // first line, 1-based
  int64_t limit = 2000;            // lines
  int64_t max_line_length = 2000;  // chars per line before `... [truncated]`
  int64_t max_chars = 100000;      // rendered-content budget
};

struct Page {
  std::string content;         // rendered lines joined by `\n`
  int64_t total_lines = 0;     // newline count, +1 for an unterminated last line
  int64_t first_line = 0;      // offset
  int64_t lines_shown = 0;     // whole or cut lines in `content`
  bool budget_hit = false;     // the char budget stopped the page
  bool line_cut = false;       // the first line alone exceeded the budget
  bool lines_altered = false;  // a shown line was clamped or had bad UTF-8 replaced
  int conflict_blocks = 0;     // balanced `<<<<<<< ` … `>>>>>>> ` pairs shown
};

// Feeds the bytes of a file in order; returns false at end of input.
// The view stays valid until the next call.
using ChunkSource = std::function<bool(std::string_view& chunk)>;

// Renders the page described by `request` from the file's bytes;
// `size_hint` (the file's size, if known) sizes the buffers up front.
Page render_page(const ChunkSource& source, const PageRequest& request, uint64_t size_hint = 0);
// Convenience for text already in memory (documents, transcoded UTF-16).
Page render_page(std::string_view text, const PageRequest& request);
// True when the page stops before the file's last line.
bool page_truncated(const Page& page, int64_t limit);
// The last line `limit` lines from `first` (>= 1) asks for; saturates
// rather than overflows, so any limit a caller passes is safe.
int64_t last_requested_line(int64_t first, int64_t limit);

}  // namespace hermes::read_file
