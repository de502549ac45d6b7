// SPDX-License-Identifier: MIT
// File-name search (docs/tools/search_files.md): `rg --files` (respects
// .gitignore, skips hidden), else a bounded `find`; newest-first by default,
// traversal order on request. Roots are given as the model wrote them.
#pragma once

#include "tools/search_files/search_types.h"

#include <string>
#include <vector>

namespace hermes::search {

SearchOutcome search_files(const SearchRequest& req, const std::vector<std::string>& roots,
                           const EngineEnv& env);

// The glob the engines get for a file pattern: its last path segment, and
// for rg a bare name gets a leading `*` (so `foo.py` also matches `xfoo.py`).
std::string prepare_file_glob(const std::string& pattern, bool for_rg);

// The rg command line search_files runs, for the benchmark.
std::vector<std::string> rg_files_argv(const std::string& glob,
                                       const std::vector<std::string>& roots,
                                       const std::string& rg);

}  // namespace hermes::search
