// SPDX-License-Identifier: MIT
// The project's JSON type. Insertion-ordered so results read in the contract's
// key order. Only edge code uses it (scripts/check-layering's JSON_EDGES).
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>

namespace hermes {

using Json = nlohmann::ordered_json;

// An empty object with room for `keys` members. An object keeps its members
// in a vector of (const key, value) pairs, and growing that vector copies
// every value instead of moving it: an object that will hold a long text (a
// read's page, a command's output, a diff) is sized before the text goes in,
// so the text is not copied again with each later member.
inline Json object_with_room(size_t keys) {
  Json out = Json::object();
  out.get_ref<Json::object_t&>().reserve(keys);
  return out;
}

// Serialises compactly with non-ASCII kept as UTF-8; invalid UTF-8 becomes
// U+FFFD instead of throwing. The same text as nlohmann's dump, faster
// (json/json_dump.cc).
std::string dump_json(const Json& value);

}  // namespace hermes
