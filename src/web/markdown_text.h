// SPDX-License-Identifier: MIT
// Text helpers of the markdown writer: whitespace collapsing, code fences
// and spans sized to their content, and the final tidy-up.
#pragma once

#include <string>
#include <string_view>

namespace hermes::web {

// Appends `text` to `out` with every whitespace run as one space, and no
// space at the start of `out` or after a newline/space already there.
void append_collapsed(std::string& out, std::string_view text);

// A run of backticks one longer than the longest run in `text` (at least
// `minimum`).
std::string backtick_fence(std::string_view text, size_t minimum);

// `text` as an inline code span.
std::string code_span(std::string_view text);

// Trailing blanks cut from every line, 3+ newlines folded to 2, blank lines
// at both ends removed.
std::string tidy_markdown(std::string_view text);

// `text` with each line prefixed (`> ` for quotes, indentation for list
// items); the first line gets `first` instead.
std::string prefix_lines(std::string_view text, std::string_view first, std::string_view rest);

}  // namespace hermes::web
