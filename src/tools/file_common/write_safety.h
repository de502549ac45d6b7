// SPDX-License-Identifier: MIT
// Write-side path policy shared by write_file and patch: the path guards of
// docs/tools/write_file.md (sensitive paths, binary documents, protected
// instruction files, ~/.ssh/config, sandbox mirrors) and the pipeline's
// write denylist and HERMES_WRITE_SAFE_ROOT. Each check returns OK when the
// write may go ahead, else an error whose message is the contract's refusal:
// kPermissionDenied for a policy, kInvalidArgument for a binary target.
#pragma once

#include "core/paths.h"
#include "core/result.h"
#include "fs/file_system.h"
#include "fs/path_lock.h"
#include "registry/tool.h"

#include <optional>
#include <string>
#include <vector>

namespace hermes {
class Config;
}  // namespace hermes

namespace hermes::file_common {

// Lowercased extension of the basename from its last dot, with the dot
// ("" when none or when the name starts with its only dot).
std::string file_extension(const std::string& path);

// /etc/, /boot/, … and the Hermes config.yaml.
Status check_not_sensitive(const ResolvedPath& path, const std::string& hermes_home);
// Office/ebook containers, SQLite sidecars, an existing PDF or an existing
// file with a binary extension (existence checked on `fs`).
Status check_not_binary_document(const ResolvedPath& path, const fs::FileSystem& fs);
// Another profile's sandbox mirror (skipped with cross_profile).
Status check_not_sandbox_mirror(const ResolvedPath& path);
// The display name when `path` is a protected agent-instruction
// file under the current configuration.
std::optional<std::string> protected_instruction_name(const ResolvedPath& path,
                                                      const Config& config);
// The user's ~/.ssh/config (`home` is the target's `~`).
bool is_ssh_config(const ResolvedPath& path, const std::string& home);

// Asks the user, through MCP elicitation when the client offers it, to
// approve writing `targets` (what: "protected agent-instruction file(s)" or
// similar). Fails closed (kPermissionDenied) unless the user accepted.
Status require_write_approval(registry::CallContext& ctx, const std::string& what,
                              const std::vector<std::string>& targets);

// The path guards over every path a call writes: sensitive path, binary
// document and sandbox mirror (unless cross_profile) per path, then one
// approval for all protected instruction files and one for ~/.ssh/config
// (existence checked on `fs`). The first refusal.
Status check_write_paths(const std::vector<ResolvedPath>& paths, bool cross_profile,
                         registry::CallContext& ctx, const fs::FileSystem& fs);

// The writer locks of `reals` for this call (fs/path_lock.h), waiting as
// PathLocks::take does; none to take when the call's brief check holds the
// lock of its one path already (taking it again would wait on that lock).
Result<std::optional<fs::PathLocks>> take_writer_locks(const std::vector<std::string>& reals,
                                                       const registry::CallContext& ctx);

// A relative path that resolved outside the session workspace earns
// this warning (it never blocks); nullopt otherwise.
std::optional<std::string> outside_workspace_warning(const ResolvedPath& path,
                                                     const std::string& session_cwd);

// The pipeline's first step, on the real path: the credential/system
// denylist (its `~` entries under the home of `fs`'s machine), then
// HERMES_WRITE_SAFE_ROOT when set (kPermissionDenied).
Status check_write_allowed(const std::string& real_path, const std::string& hermes_home,
                           const fs::FileSystem& fs);

}  // namespace hermes::file_common
