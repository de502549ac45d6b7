// SPDX-License-Identifier: MIT
// process's JSON edge (process_json.cc): the arguments (the reference's lenient reading) and the
// contract's JSON for an output. The typed boundary is process.h, which has no JSON in it.
#pragma once

#include "core/result.h"
#include "json/json.h"
#include "tools/process/process.h"

namespace hermes::process {

Result<ProcessParams> parse_process_params(const Json& args);
Json process_json(const ProcessOutput& output);

}  // namespace hermes::process
