// SPDX-License-Identifier: MIT
// JSON parsing that, unlike a strict parser, accepts lone UTF-16 surrogate
// escapes (`\udXXX`) and decodes them to their 3-byte (WTF-8) form, so the
// tool — not the parser — decides what to do with such text (write_file
// refuses it with its own message).
#pragma once

#include "core/result.h"
#include "json/json.h"
#include "json/json_parse.h"

#include <string>
#include <string_view>

namespace hermes::mcp {

// Parses one JSON text within `limits` (see json/json_parse.h); kTooLarge or
// kInvalidArgument with the reason on error.
Result<Json> parse_lenient(std::string_view text, const JsonLimits& limits = {});

}  // namespace hermes::mcp
