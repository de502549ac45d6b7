// SPDX-License-Identifier: MIT
// The content half of read_file (docs/tools/read_file.md, steps 8–10): negative
// cache, dedup, the real read through the FileSystem interface, not-found
// handling, binary/UTF-16 detection, pagination and redaction.
#pragma once

#include "core/clock.h"
#include "core/paths.h"
#include "fs/file_system.h"
#include "tools/read_file/read_file.h"
#include "tools/read_file/text_page.h"

#include <optional>
#include <string>

namespace hermes::file_common {
class ReadTracker;
}  // namespace hermes::file_common

namespace hermes::read_file {

class ReadState;

struct ReadSettings {
  PageRequest page;
  bool redact = true;
  Clock::TimePoint now;  // the call's time, for the negative cache
};

// Steps 8–10 for `path` (`info` is its stat, nullopt when missing).
Result<ReadFileOutput> read_text_file(const fs::FileSystem& fs, const ResolvedPath& path,
                                      const std::optional<fs::FileInfo>& info,
                                      const ReadSettings& settings, ReadState& state,
                                      file_common::ReadTracker& tracker);
// A notebook's extracted text, or nullopt when it is not a valid notebook.
std::optional<std::string> read_notebook(const fs::FileSystem& fs, const std::string& real_path);
// The page of extracted document text; recorded as a partial read (the
// model saw a rendering, not the file's bytes).
ReadFilePage serve_document(const std::string& text, const fs::FileInfo& info,
                            const ResolvedPath& path, const ReadSettings& settings,
                            file_common::ReadTracker& tracker);

}  // namespace hermes::read_file
