// SPDX-License-Identifier: MIT
// A JSON file the server reads for itself (auth.json, the models cache, task
// records): read_capped_file's guards, then the bounded parser.
#pragma once

#include "core/result.h"
#include "json/json.h"

#include <cstddef>
#include <stop_token>
#include <string>

namespace hermes {

// read_capped_file (core/capped_read.h), then parse_json (json/json_parse.h)
// with the same byte cap: kInvalidArgument "<path>: not valid JSON (<reason>)"
// when it is not.
Result<Json> read_capped_json(const std::string& path, size_t max_bytes, std::stop_token stop = {});

}  // namespace hermes
