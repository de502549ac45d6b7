// SPDX-License-Identifier: MIT
// write_file's JSON edge (write_file_json.cc): the arguments and the contract's JSON for an output.
// The typed boundary is write_file.h, which has no JSON in it.
#pragma once

#include "core/result.h"
#include "json/json.h"
#include "tools/write_file/write_file.h"

namespace hermes::write_file {

Result<WriteFileParams> parse_write_file_params(const Json& args);
Json write_file_json(const WriteFileOutput& output);

}  // namespace hermes::write_file
