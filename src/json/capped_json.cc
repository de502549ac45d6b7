// SPDX-License-Identifier: MIT
#include "json/capped_json.h"

#include "core/capped_read.h"
#include "json/json_parse.h"

namespace hermes {

Result<Json> read_capped_json(const std::string& path, size_t max_bytes, std::stop_token stop) {
  HERMES_ASSIGN_OR_RETURN(std::string text, read_capped_file(path, max_bytes, stop));
  auto doc = parse_json(text, JsonLimits{.max_bytes = max_bytes});
  if (!doc) return Error::InvalidArgument(path + ": not valid JSON (" + doc.error().message + ")");
  return doc;
}

}  // namespace hermes
