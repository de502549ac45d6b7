// SPDX-License-Identifier: MIT
// Zero-result probes (docs/tools/search_files.md): when a content search finds
// nothing, bounded count-only rg runs look for a case, hidden/ignored or
// literal reading of the pattern and explain the first that hits.
#pragma once

#include "tools/search_files/search_types.h"

#include <string>
#include <vector>

namespace hermes::search {

// The steering warning for a zero-result search of `roots`, or empty. Needs
// rg (env.engines.rg); at most three runs of at most 50 result lines each.
std::string zero_result_hint(const SearchRequest& req, const std::vector<std::string>& roots,
                             const EngineEnv& env);

// The rg command lines of the probes, in order, for the benchmark.
std::vector<std::vector<std::string>> zero_probe_argvs(const SearchRequest& req,
                                                       const std::vector<std::string>& roots,
                                                       const std::string& rg);

}  // namespace hermes::search
