// SPDX-License-Identifier: MIT
// The one way untrusted JSON text becomes a Json value: bounded in size and
// nesting depth, and numbers that do not fit (`1e400`, an integer past 64
// bits) refused instead of thrown or silently rounded. Every walk over a value
// parsed here (copy, dump, redaction) may recurse: the depth bound keeps those
// walks on the stack.
#pragma once

#include "core/result.h"
#include "json/json.h"

#include <cstddef>
#include <string_view>

namespace hermes {

struct JsonLimits {
  size_t max_bytes = 64u << 20;
  size_t max_depth = 128;
};

// Parses one JSON text (surrounding whitespace allowed). kTooLarge when the
// text passes max_bytes; kInvalidArgument with the reason otherwise.
Result<Json> parse_json(std::string_view text, const JsonLimits& limits = {});

}  // namespace hermes
