// SPDX-License-Identifier: MIT
// The read denylist (docs/tools/read_file.md): secret-bearing `.env` files anywhere,
// and the Hermes credential stores, token directories and skill-hub cache
// under the Hermes home and root. read_file refuses them; search_files drops
// them from results. Defense in depth, not a security boundary.
#pragma once

#include "core/result.h"

#include <string>
#include <vector>

namespace hermes::file_common {

// kPermissionDenied with the `Access denied: …` message when `real_path`
// (fully resolved) may not be read, else OK. `hermes_home` is the active
// Hermes home; its root (the parent of `profiles/<name>`) is checked too.
// `display` is the path named in the message (defaults to `real_path`).
Status check_readable(const std::string& real_path, const std::string& hermes_home,
                      const std::string& display = "");

// The real paths of the stores the denylist names by place (not by basename):
// the credential files, the MCP token and browser-profile folders and the
// skill-hub cache under the Hermes home and its root. search_files keeps its
// engines out of them (docs/containment.md, Searches).
std::vector<std::string> denied_read_paths(const std::string& hermes_home);

// True for the `.env`-style basenames blocked anywhere on disk
// (case-insensitive; `.env.example` is not one of them).
bool is_blocked_env_basename(const std::string& basename);

}  // namespace hermes::file_common
