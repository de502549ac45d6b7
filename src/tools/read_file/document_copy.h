// SPDX-License-Identifier: MIT
// Documents on another machine: the bytes are copied to a host temp file
// (removed afterwards) so the path-based extractors (libzip, pdftotext) give
// exactly the native results.
#pragma once

#include "core/result.h"
#include "fs/file_system.h"
#include "tools/read_file/documents.h"

#include <cstdint>
#include <stop_token>
#include <string>

namespace hermes::read_file {

// extract_document for `path` on `fs` (`size` from its stat); files above
// 64 MiB are not copied (kTooLarge).
Result<std::string> extract_document_copy(const fs::FileSystem& fs, const std::string& path,
                                          uint64_t size, DocumentKind kind, std::stop_token stop);

}  // namespace hermes::read_file
