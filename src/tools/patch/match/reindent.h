// SPDX-License-Identifier: MIT
// Fitting new_string into the file after an approximate match: lines the
// model left unchanged are taken from the file verbatim (its Unicode, its
// trailing spaces), changed lines are re-based from old_string's indentation
// to the file's, level by level (tabs stay tabs, spaces stay spaces).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hermes::match {

// Indent width with a tab as four columns.
size_t indent_columns(std::string_view indent);

// The indentation of the first non-blank line of `text`.
std::string_view base_indent(std::string_view text);

// new_string written in the file's indentation while old_string was not
// (old_string at 2 spaces, the file and new_string at 4): new_string is then
// read in the file's indentation, not re-based from old_string's again.
bool in_file_indentation(std::string_view old_base, std::string_view file_base,
                         std::string_view new_base);

// `old_lines` is the pattern as matched, `file_lines` the matched file text,
// `new_lines` the replacement. `line_start` is false when the match starts
// mid-line (then nothing is re-indented).
std::vector<std::string> rebase_new_lines(std::vector<std::string_view> old_lines,
                                          const std::vector<std::string_view>& file_lines,
                                          std::vector<std::string> new_lines, bool line_start);

}  // namespace hermes::match
