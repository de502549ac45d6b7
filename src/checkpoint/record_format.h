// SPDX-License-Identifier: MIT
// The text form of the checkpoint files (the index and the journal): one
// record per line, fields separated by tabs, `%`, tab and newline escaped
// as %25, %09 and %0A, so any path fits in a field.
#pragma once

#include "core/result.h"

#include <string>
#include <string_view>
#include <vector>

#include "checkpoint/path_state.h"

namespace hermes::checkpoint {

std::string escape_field(std::string_view text);
std::string unescape_field(std::string_view text);
// A line's fields, unescaped.
std::vector<std::string> split_fields(std::string_view line);
// Joins escaped fields with tabs.
std::string join_fields(const std::vector<std::string>& fields);

// A state as kStateFields fields, and back from `fields` at `at`.
inline constexpr size_t kStateFields = 6;
void append_state(std::vector<std::string>& fields, const PathState& state);
Result<PathState> parse_state(const std::vector<std::string>& fields, size_t at);

}  // namespace hermes::checkpoint
