// SPDX-License-Identifier: MIT
// Write-side path policy shared by write_file and patch: the tool-layer
// guards of file-tools.md §2.2 (sensitive paths, binary documents, protected
// instruction files, ~/.ssh/config, sandbox mirrors) and the file-ops write
// denylist and HERMES_WRITE_SAFE_ROOT of §2.3 item 1. Each check returns the
// contract's refusal message, or nullopt when the write may go ahead.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/paths.h"
#include "fs/file_system.h"
#include "registry/tool.h"

namespace hermes {

class Config;

// Lowercased extension of the basename from its last dot, with the dot
// ("" when none or when the name starts with its only dot).
std::string file_extension(const std::string& path);

// §2.2 item 1: /etc/, /boot/, … and the Hermes config.yaml.
std::optional<std::string> sensitive_path_error(const ResolvedPath& path,
                                                const std::string& hermes_home);
// §2.2 item 2: office/ebook containers, SQLite sidecars, an existing PDF or
// an existing file with a binary extension (existence checked on `fs`).
std::optional<std::string> binary_document_error(const ResolvedPath& path, const FileSystem& fs);
// §2.2 item 5: another profile's sandbox mirror (skipped with cross_profile).
std::optional<std::string> sandbox_mirror_error(const ResolvedPath& path);
// §2.2 item 3: the display name when `path` is a protected agent-instruction
// file under the current configuration.
std::optional<std::string> protected_instruction_name(const ResolvedPath& path,
                                                      const Config& config);
// §2.2 item 4: the user's ~/.ssh/config (`home` is the target's `~`).
bool is_ssh_config(const ResolvedPath& path, const std::string& home);

// Asks the user, through MCP elicitation when the client offers it, to
// approve writing `targets` (what: "protected agent-instruction file(s)" or
// similar). Fails closed: nullopt only when the user accepted.
std::optional<std::string> require_write_approval(CallContext& ctx, const std::string& what,
                                                  const std::vector<std::string>& targets);

// The tool-layer guards of §2.2 items 1–5 over every path a call writes:
// sensitive path, binary document and sandbox mirror (unless cross_profile)
// per path, then one approval for all protected instruction files and one
// for ~/.ssh/config (existence checked on `fs`). The first refusal, or nullopt.
std::optional<std::string> path_guard_error(const std::vector<ResolvedPath>& paths,
                                            bool cross_profile, CallContext& ctx,
                                            const FileSystem& fs);

// §0: a relative path that resolved outside the session workspace earns
// this warning (it never blocks); nullopt otherwise.
std::optional<std::string> outside_workspace_warning(const ResolvedPath& path,
                                                     const std::string& session_cwd);

// §2.3 item 1, on the real path: the credential/system denylist (its `~`
// entries under the home of `fs`'s machine), then HERMES_WRITE_SAFE_ROOT
// when set.
std::optional<std::string> write_denied_error(const std::string& real_path,
                                              const std::string& hermes_home,
                                              const FileSystem& fs);

}  // namespace hermes
