// SPDX-License-Identifier: MIT
// search_files: its typed arguments, its outcomes, and the handler that runs
// the loop guard and one search (docs/tools/search_files.md). The JSON shapes
// live in search_files_json.cc.
#pragma once

#include "core/result.h"
#include "registry/tool.h"
#include "tools/search_files/search_types.h"

#include <cstdint>
#include <string>
#include <variant>

namespace hermes::registry {
class Registry;
}  // namespace hermes::registry

namespace hermes::search {

// The arguments once parsed: pattern never empty, paging clamped.
using SearchFilesParams = search::SearchRequest;

// A search that ran. Its outcome may be a failure (`outcome.error`: a
// missing root, an engine that failed or was interrupted), rendered with
// the outcome's other keys.
struct SearchFilesResults {
  search::SearchOutcome outcome;  // match content already redacted
  int64_t next_offset = 0;        // offset + limit, for a truncated page's `_hint`
  bool third_repeat = false;      // the third identical search in a row: `_warning`
};

// The fourth identical search in a row and later: refused (kPermissionDenied).
struct SearchFilesBlocked {
  Error error;
  std::string pattern;
  int repeats = 0;
};

using SearchFilesOutput = std::variant<SearchFilesResults, SearchFilesBlocked>;

// Runs search_files. Refusals of the root (NT namespace, read denylist,
// outside the workspace root) and backend faults are errors; the rest are
// outputs, `search_files_failure` names their failure.
Result<SearchFilesOutput> search_files(const SearchFilesParams& params, registry::CallContext& ctx);
const Error* search_files_failure(const SearchFilesOutput& output);

void register_search_files(registry::Registry& registry);

}  // namespace hermes::search
