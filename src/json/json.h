// SPDX-License-Identifier: MIT
// The project's JSON type. Insertion-ordered so results read in the contract's
// key order. Only edge code uses it (scripts/check-layering's JSON_EDGES).
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace hermes {

using Json = nlohmann::ordered_json;

// Serialises compactly with non-ASCII kept as UTF-8; invalid UTF-8 becomes
// U+FFFD instead of throwing. The same text as nlohmann's dump, faster
// (json/json_dump.cc).
std::string dump_json(const Json& value);

}  // namespace hermes
