// SPDX-License-Identifier: MIT
// checkpoint at the JSON edge: arguments in, each output's JSON out.
#pragma once

#include "json/json.h"
#include "tools/checkpoint/checkpoint.h"

namespace hermes::checkpoint_tool {

Result<CheckpointParams> parse_checkpoint_params(const Json& args);
Json checkpoint_json(const CheckpointOutput& output);

}  // namespace hermes::checkpoint_tool
