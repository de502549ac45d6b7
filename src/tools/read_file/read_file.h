// SPDX-License-Identifier: MIT
// read_file: its typed arguments, its outcomes, and the handler that runs the
// guards of docs/tools/read_file.md in order and reads a page. The JSON
// shapes live in read_file_json.cc.
#pragma once

#include "core/result.h"
#include "registry/tool.h"
#include "tools/read_file/text_page.h"

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace hermes::registry {
class Registry;
}  // namespace hermes::registry

namespace hermes::read_file {

struct ReadFileParams {
  std::string path;      // as the model wrote it; never empty
  int64_t offset = 1;    // first line, clamped to [1, 2^50]
  int64_t limit = 2000;  // lines as given; the handler caps it at tool_output.max_lines
};

// A page of a text file or of a document's extracted text.
struct ReadFilePage {
  Page page;
  uint64_t file_size = 0;
  int64_t limit = 2000;
  int64_t max_chars = 100000;
  bool extracted_document = false;
  std::string hint_prefix;  // unicode-variant / UTF-16 notes
  std::string warning;      // the third consecutive read's `_warning`
};

// A file whose bytes are binary (a failure: `is_binary` with an `error`).
struct ReadFileBinary {
  uint64_t size = 0;
  Error error;
};

// A missing file, with the siblings it probably meant (at most 5).
struct ReadFileNotFound {
  Error error;
  std::vector<std::string> similar;
};

// The dedup stub: the region is unchanged since the model last read it.
struct ReadFileUnchanged {
  std::string given;
};

// A read refused by the loop guards (the stub again, or a 4th identical read).
struct ReadFileBlocked {
  Error error;
  std::string given;
  int count = 0;
};

// A FIFO, socket or device: refused with a `note`, not an `error`.
struct ReadFileSpecial {
  Error error;  // its message is the note
};

using ReadFileOutput = std::variant<ReadFilePage, ReadFileBinary, ReadFileNotFound,
                                    ReadFileUnchanged, ReadFileBlocked, ReadFileSpecial>;

// Runs read_file. Plain failures (path missing or refused, extraction failed,
// binary extension, open errors) are errors; the outcomes above that carry
// more than a message are outputs, `read_file_failure` names their failure.
Result<ReadFileOutput> read_file(const ReadFileParams& params, registry::CallContext& ctx);
// The failure an output stands for, or nullptr for a page or the stub.
const Error* read_file_failure(const ReadFileOutput& output);

void register_read_file(registry::Registry& registry);

}  // namespace hermes::read_file
