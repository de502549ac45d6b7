// SPDX-License-Identifier: MIT
// read_file's result JSON shapes (file-tools.md §1.3–§1.8, §1.12): the page
// with its hints and annotations, the binary refusal, the not-found error,
// the dedup stub and the BLOCKED errors. Edge code: JSON lives here only.
#pragma once

#include <string>
#include <vector>

#include "core/json.h"
#include "tools/read_file/text_page.h"

namespace hermes {

struct PageContext {
  std::string given;  // the path as the model wrote it
  uint64_t file_size = 0;
  int64_t limit = 2000;
  int64_t max_chars = 100000;
  bool extracted_document = false;
  std::string hint_prefix;  // unicode-variant / UTF-16 notes
};

// The success result for `page` (content already redacted by the caller).
Json page_json(const Page& page, const PageContext& ctx);
// True when the page stops before the file's last line.
bool page_truncated(const Page& page, int64_t limit);

Json binary_json(uint64_t size, const std::string& kind);
Json not_found_json(const std::string& absolute, const std::vector<std::string>& similar);
Json stub_json(const std::string& given);
Json stub_blocked_json(const std::string& given, int count);
Json repeat_blocked_json(const std::string& given, int count);
// The `_warning` of the third consecutive real read.
std::string repeat_warning();

}  // namespace hermes
