// SPDX-License-Identifier: MIT
// Which file system a file-tool call acts on (docs/ARCHITECTURE.md, Backends): system calls on
// the plain local backend; shell commands through the session's backend on
// every other one (and on local with terminal.portable_files), with paths
// resolved on that target.
#pragma once

#include "backend/backend.h"
#include "backend/shell_file_system.h"
#include "core/paths.h"
#include "fs/file_system.h"
#include "registry/tool.h"

#include <memory>
#include <stop_token>
#include <string>
#include <string_view>

namespace hermes::file_common {

class FileAccess {
 public:
  // For one call: the session's backend, started. Its error (bad
  // configuration, ssh host unreachable) is the user-facing message.
  static Result<FileAccess> for_call(registry::CallContext& ctx);

  const fs::FileSystem& fs() const;
  bool native() const { return shell_ == nullptr; }
  // True when the target's files are this host's files (the local backend,
  // native or portable), so host programs may open them by path.
  bool files_on_host() const;
  // The directory relative paths join: the session cwd, else the target's
  // default (PathResolver::workspace on the native path).
  std::string workspace() const;
  // The call's PathResolver rules on the target: `~` is the target's home,
  // a relative path joins the session cwd (else the backend's default cwd),
  // links are resolved there.
  Result<ResolvedPath> resolve(std::string_view given) const;
  // The call's cancellation, for the subprocesses a tool runs on the side.
  std::stop_token stop() const;

 private:
  FileAccess(registry::CallContext& ctx, std::shared_ptr<backend::Backend> backend);

  registry::CallContext* ctx_;
  std::shared_ptr<backend::Backend> backend_;
  std::shared_ptr<const backend::ShellFileSystem> shell_;  // null on the native path
  const fs::FileSystem* files_;                            // what fs() returns, chosen once
};

}  // namespace hermes::file_common
