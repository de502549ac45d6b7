// SPDX-License-Identifier: MIT
// V4A patch text → file operations (docs/tools/patch.md): the
// Hermes dialect (`*** Move File: a -> b`) and OpenAI's (`*** Move to: b`
// inside an Update), tolerant of indented markers and headers.
#pragma once

#include "core/result.h"

#include <string>
#include <string_view>
#include <vector>

namespace hermes::v4a {

enum class OpKind { kAdd, kDelete, kUpdate, kMove };

struct Hunk {
  std::string hint;                    // the `@@ hint` anchor, "" when none
  std::vector<std::string> old_lines;  // context and removed lines
  std::vector<bool> removed;           // per old line: a `-` line
  std::vector<std::string> new_lines;  // context and added lines
  bool end_of_file = false;            // followed by `*** End of File`
};

struct FileOp {
  OpKind kind = OpKind::kUpdate;
  std::string path;
  std::string move_to;                 // Move File destination, or an Update's `Move to:`
  std::vector<Hunk> hunks;             // Update
  std::vector<std::string> add_lines;  // Add
};

// Parses the whole patch. Errors read `Parse error: …` (several joined with
// `; `); text with no V4A structure at all names its first line.
Result<std::vector<FileOp>> parse_patch(std::string_view text);

}  // namespace hermes::v4a
