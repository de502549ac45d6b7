// SPDX-License-Identifier: MIT
// Checks and messages about the search root (docs/tools/search_files.md):
// NT-namespace prefixes, missing roots with similar-path suggestions, roots
// that look like several paths, and roots that are not files or folders.
#pragma once

#include "tools/search_files/search_host.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hermes::search {

// The refusal for a Windows device / NT-namespace path (`\\?\`, `\??\`,
// `\\.\`, or the same with forward slashes), else nullopt.
std::optional<std::string> nt_namespace_error(std::string_view given);

// `Path not found: <given>`, plus `. Similar paths: …` (up to 5) when the
// parent exists and some of its first 20 visible entries resemble the
// basename. Relative paths are looked up against `cwd`, on `host`.
std::string path_not_found_message(const std::string& given, const std::string& cwd,
                                   SearchHost& host);

// The parts of a path that may really be several: split on commas when it
// has any (parts trimmed, empties dropped), else on whitespace.
std::vector<std::string> split_multi_path(const std::string& path);

// An error for a root that exists but is neither a folder nor a regular file
// (a FIFO would block the engine), else nullopt. `kind` is what it is.
std::optional<std::string> special_root_error(const std::string& given, PathKind kind);

}  // namespace hermes::search
