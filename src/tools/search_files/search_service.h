// SPDX-License-Identifier: MIT
// One search_files call after the loop guard (docs/tools/search_files.md):
// root checks, the negative cache, multi-path recovery, the
// engines, and the read-denylist filter over results.
#pragma once

#include "core/paths.h"
#include "core/result.h"
#include "tools/search_files/search_state.h"
#include "tools/search_files/search_types.h"

#include <string>

namespace hermes::search {

struct SearchDeps {
  const PathResolver& paths;
  std::string session_cwd;  // as recorded by the terminal tool (may be empty)
  std::string hermes_home;
  SearchSessionState& state;
  EngineEnv env;  // cwd, home, blocked, fence_root are filled by run_search
};

// A refusal (NT namespace, denylisted or out-of-root root) is an Error and
// renders as `{"error": …}`; everything else, failures of the search itself
// included, is an outcome.
Result<SearchOutcome> run_search(const SearchRequest& req, SearchDeps& deps);

}  // namespace hermes::search
