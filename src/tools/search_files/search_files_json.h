// SPDX-License-Identifier: MIT
// search_files's JSON edge (search_files_json.cc): the arguments (numbers coerced, paging clamped)
// and the contract's JSON for an output. The typed boundary is search_files.h, which has no JSON in
// it.
#pragma once

#include "core/result.h"
#include "json/json.h"
#include "tools/search_files/search_files.h"

namespace hermes::search {

Result<SearchFilesParams> parse_search_files_params(const Json& args);
Json search_files_json(const SearchFilesOutput& output);

}  // namespace hermes::search
