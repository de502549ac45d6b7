// SPDX-License-Identifier: MIT
// Reads a file the server reads for itself (config, credentials, caches)
// whose path a user or a hostile tree may point anywhere: regular files only,
// opened non-blocking so a FIFO or a device never blocks the caller, refused
// up front when larger than the cap for its kind, and stoppable between
// chunks.
#pragma once

#include "core/result.h"

#include <cstddef>
#include <stop_token>
#include <string>

namespace hermes {

// The file's bytes. kNotFound when missing; kInvalidArgument when not a
// regular file; kTooLarge past `max_bytes`; kCancelled when `stop` fires.
Result<std::string> read_capped_file(const std::string& path, size_t max_bytes,
                                     std::stop_token stop = {});

}  // namespace hermes
