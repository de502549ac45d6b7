// SPDX-License-Identifier: MIT
// The MCP parser on arbitrary bytes: never a crash, and what it accepts
// survives a dump and a strict re-parse (depth and numbers stay in bounds).
#include "json/json_parse.h"
#include "mcp/lenient_json.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto value = hermes::mcp::parse_lenient(text, {.max_bytes = 1 << 20, .max_depth = 64});
  if (!value) return 0;
  auto again = hermes::parse_json(hermes::dump_json(*value), {.max_depth = 64});
  if (!again) std::abort();  // a value we accepted must serialise to valid JSON
  return 0;
}
