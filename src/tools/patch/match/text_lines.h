// SPDX-License-Identifier: MIT
// A text split into lines once, by byte offsets (no copies), plus the small
// per-line helpers every matching tier uses.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace hermes::match {

struct LineSpan {
  size_t begin = 0;  // first byte of the line
  size_t end = 0;    // end of the content, before "\r\n" or "\n"
  size_t next = 0;   // first byte after the line ending
};

// Lines of `text`; a final line without an ending is included, a trailing
// ending does not start an extra empty line. Empty text has no lines.
std::vector<LineSpan> split_lines(std::string_view text);

// The same split as plain views (line contents without endings).
std::vector<std::string_view> line_views(std::string_view text);

inline bool is_blank_char(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}
std::string_view trim_view(std::string_view s);
std::string_view ltrim_view(std::string_view s);
std::string_view rtrim_view(std::string_view s);
// Leading spaces and tabs.
std::string_view indent_of(std::string_view line);
bool is_blank(std::string_view line);

// Index of the line holding byte `offset` (binary search).
size_t line_index_at(const std::vector<LineSpan>& lines, size_t offset);

// Code points of UTF-8 text; an invalid byte becomes one unit of its value.
std::u32string decode_utf8(std::string_view s);

}  // namespace hermes::match
