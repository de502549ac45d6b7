// SPDX-License-Identifier: MIT
#include "registry/checkpoint_hook.h"

#include "backend/backend_config.h"
#include "core/log.h"
#include "core/paths.h"
#include "registry/session.h"
#include "registry/session_backend.h"

#include <ctime>
#include <functional>
#include <mutex>

namespace hermes::registry {

namespace {

// The workspace on this host.
std::string local_workspace(const CallContext& ctx) {
  const std::string& root = ctx.services.paths.root();
  if (!root.empty()) return root;
  return PathResolver::real_path(PathResolver::workspace(ctx.session.cwd()));
}

// `given` as the file tools resolve it on the target (file_common's
// FileAccess::resolve).
Result<std::string> resolve_on_target(const CallContext& ctx, const backend::Backend& backend,
                                      const backend::ShellFileSystem& files,
                                      const std::string& workspace, const std::string& given) {
  HERMES_ASSIGN_OR_RETURN(
      ResolvedPath resolved,
      ctx.services.paths.resolve_on(given, backend.home(), workspace, [&](const std::string& path) {
        return files.real_path(path);
      }));
  return resolved.real;
}

// The target's workspace as a real path there, resolved once per session
// and directory: each call would pay a round trip to the target for it.
class TargetRoot final : public SessionState {
 public:
  Result<std::string> of(const std::string& workspace,
                         const std::function<Result<std::string>()>& resolve) {
    std::lock_guard lock(mu_);
    if (workspace != given_ || real_.empty()) {
      HERMES_ASSIGN_OR_RETURN(real_, resolve());
      given_ = workspace;
    }
    return real_;
  }

 private:
  std::mutex mu_;
  std::string given_;  // mu_
  std::string real_;   // mu_
};

// Runs the session's commands under the workspace's write capture, so a
// shell call's changes are kept as they happen; false when its backend
// cannot (docker, a kernel without it): the store then keeps the tree.
bool capture_writes(CallContext& ctx, const checkpoint::Checkpoints& store, const std::string& root,
                    const checkpoint::Settings& settings) {
  auto backend = session_backend(ctx);
  if (!backend) return false;
  auto capture = store.write_capture(root, settings);
  if (!capture) {
    log::warn("checkpoints: the write capture: " + capture.error().message);
    return false;
  }
  return (*backend)->capture_writes(std::move(*capture));
}

}  // namespace

Result<CheckpointPlace> checkpoint_place(CallContext& ctx) {
  std::string here = local_workspace(ctx);
  if (backend::files_on_this_host(ctx.services.config, here)) return CheckpointPlace{.root = here};
  HERMES_ASSIGN_OR_RETURN(std::shared_ptr<backend::Backend> backend, session_backend(ctx));
  // Not stopped with the call: its commands have their own deadline, and a
  // cancelled call's changes are still recorded. One instance serves the
  // whole call: the store reads through read_entry, which remembers nothing.
  auto files = std::make_shared<backend::ShellFileSystem>(backend, std::stop_token{});
  std::string workspace = ctx.services.paths.root();
  if (workspace.empty()) workspace = ctx.session.cwd();
  if (workspace.empty()) workspace = backend->default_cwd();
  HERMES_ASSIGN_OR_RETURN(std::string root, ctx.session.state<TargetRoot>().of(workspace, [&] {
    return resolve_on_target(ctx, *backend, *files, "/", workspace);
  }));
  return CheckpointPlace{
      .root = std::move(root),
      .remote = {.target = backend::files_target(ctx.services.config), .files = files},
      .backend = std::move(backend),
      .shell = std::move(files)};
}

std::optional<checkpoint::Ticket> checkpoint_before(const ToolSpec& spec, const Json& args,
                                                    CallContext& ctx) {
  const checkpoint::Checkpoints* store = ctx.services.checkpoints;
  if (store == nullptr || !spec.changes) return std::nullopt;
  std::optional<checkpoint::Footprint> footprint = spec.changes(args);
  if (!footprint) return std::nullopt;
  checkpoint::Settings settings = checkpoint::settings_from(ctx.services.config);
  if (!settings.enabled) return std::nullopt;
  auto place = checkpoint_place(ctx);
  if (!place) {
    log::warn("checkpoint before " + spec.name + ": " + place.error().message);
    return std::nullopt;
  }
  // Elsewhere than this host, a command's changes are not seen: the call
  // is listed, its changes not captured. Tool edits are kept either way.
  bool here = place->remote.here();
  checkpoint::CallInfo call{.root = place->root,
                            .tool = spec.name,
                            .summary = footprint->summary,
                            .session = ctx.session.id(),
                            .shell = footprint->shell,
                            .shell_captured = here,
                            .remote = place->remote};
  if (here && footprint->shell) {
    call.writes_captured = capture_writes(ctx, *store, place->root, settings);
  }
  // On the target a relative path joins the session's directory there, else
  // the backend's default, as the file tools join it (FileAccess).
  std::string base;
  if (!here) base = ctx.session.cwd().empty() ? place->backend->default_cwd() : ctx.session.cwd();
  for (const std::string& given : footprint->paths) {
    if (here) {
      auto resolved = ctx.services.paths.resolve(given, ctx.session.cwd());
      if (resolved) call.paths.push_back(resolved->real);
      continue;
    }
    auto real = resolve_on_target(ctx, *place->backend, *place->shell, base, given);
    if (real) call.paths.push_back(std::move(*real));
  }
  auto ticket = store->begin(call, settings);
  if (!ticket) {
    log::warn("checkpoint before " + spec.name + ": " + ticket.error().message);
    return std::nullopt;
  }
  return std::move(*ticket);
}

void checkpoint_job_started(int pid, CallContext& ctx) {
  const checkpoint::Checkpoints* store = ctx.services.checkpoints;
  if (store == nullptr || pid <= 0) return;
  std::string workspace = local_workspace(ctx);
  if (!backend::files_on_this_host(ctx.services.config, workspace)) return;
  Status noted = store->note_running(workspace, pid);
  if (!noted) log::warn("checkpoint: a background job's mark: " + noted.error().message);
}

void checkpoint_after(const checkpoint::Ticket& ticket, CallContext& ctx) {
  checkpoint::Settings settings = checkpoint::settings_from(ctx.services.config);
  Status done = ctx.services.checkpoints->finish(ticket, settings);
  if (!done) log::warn("checkpoint after a call: " + done.error().message);
  auto pruned = ctx.services.checkpoints->prune_if_due(settings, ::time(nullptr));
  if (!pruned) log::warn("checkpoint pruning: " + pruned.error().message);
}

}  // namespace hermes::registry
