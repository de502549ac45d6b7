// SPDX-License-Identifier: MIT
#include "tools/file_common/file_access.h"

#include "fs/native_file_system.h"
#include "registry/session.h"
#include "registry/session_backend.h"

namespace hermes::file_common {

FileAccess::FileAccess(registry::CallContext& ctx, std::shared_ptr<backend::Backend> backend)
    : ctx_(&ctx), backend_(std::move(backend)) {
  if (!backend_->native_files())
    shell_ = std::make_shared<backend::ShellFileSystem>(backend_, ctx.stop);
  // A test's file system when it gave one; else this host's, under --root.
  if (shell_)
    files_ = shell_.get();
  else if (&ctx.services.files != &fs::native_file_system())
    files_ = &ctx.services.files;
  else
    files_ = &fs::native_file_system(ctx.services.paths.root());
}

Result<FileAccess> FileAccess::for_call(registry::CallContext& ctx) {
  HERMES_ASSIGN_OR_RETURN(std::shared_ptr<backend::Backend> backend, session_backend(ctx));
  return FileAccess(ctx, std::move(backend));
}

const fs::FileSystem& FileAccess::fs() const { return *files_; }

bool FileAccess::files_on_host() const { return !shell_ || backend_->name() == "local"; }

std::stop_token FileAccess::stop() const { return ctx_->stop; }

std::string FileAccess::workspace() const {
  std::string cwd = ctx_->session.cwd();
  if (!shell_)
    return PathResolver::inside_root(PathResolver::workspace(cwd), ctx_->services.paths.root());
  return cwd.empty() ? backend_->default_cwd() : cwd;
}

Result<ResolvedPath> FileAccess::resolve(std::string_view given) const {
  if (!shell_) {
    const registry::BriefFindings* found = ctx_->brief_findings;
    return ctx_->services.paths.resolve(given, ctx_->session.cwd(), found ? &found->path : nullptr);
  }
  return ctx_->services.paths.resolve_on(
      given, backend_->home(), workspace(),
      [this](const std::string& absolute) { return shell_->real_path(absolute); });
}

}  // namespace hermes::file_common
