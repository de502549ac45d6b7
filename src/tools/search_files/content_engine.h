// SPDX-License-Identifier: MIT
// Content search (docs/tools/search_files.md): ripgrep, else grep, over one
// roots, with true totals, the zero-result probes and the newline warnings.
#pragma once

#include "tools/search_files/search_types.h"

#include <string>
#include <vector>

namespace hermes::search {

// Searches `roots` (as the model gave them, `~` expanded; relative to
// env.cwd) in one engine run, so paging and totals span every root. Fills
// error/warning/limit_reason as the contract says.
SearchOutcome search_content(const SearchRequest& req, const std::vector<std::string>& roots,
                             const EngineEnv& env);

// The rg command line search_content runs (argv[0] = `rg`), for the
// benchmark that runs the same line directly.
std::vector<std::string> rg_content_argv(const SearchRequest& req,
                                         const std::vector<std::string>& roots,
                                         const std::string& rg);

}  // namespace hermes::search
