// SPDX-License-Identifier: MIT
// patch's JSON edge (patch_json.cc): the arguments and the contract's JSON for an output. The typed
// boundary is patch.h, which has no JSON in it.
#pragma once

#include "core/result.h"
#include "json/json.h"
#include "tools/patch/patch.h"

namespace hermes::patch {

Result<PatchParams> parse_patch_params(const Json& args);
Json patch_json(const PatchOutput& output);

}  // namespace hermes::patch
