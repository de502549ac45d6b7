// SPDX-License-Identifier: MIT
// execute_code's JSON edge (execute_code_json.cc): the arguments and the contract's JSON for an
// output. The typed boundary is execute_code.h, which has no JSON in it.
#pragma once

#include "core/result.h"
#include "json/json.h"
#include "tools/execute_code/execute_code.h"

namespace hermes::execute_code {

Result<ExecuteCodeParams> parse_execute_code_params(const Json& args);
Json execute_code_json(const ExecuteCodeOutput& output);
// The PNGs a kernel's cell showed, as MCP image content.
std::vector<registry::ContentBlock> execute_code_images(const ExecuteCodeOutput& output);

}  // namespace hermes::execute_code
