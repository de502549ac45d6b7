// SPDX-License-Identifier: MIT
#include "registry/checkpoint_hook.h"

#include "backend/backend_config.h"
#include "core/log.h"
#include "core/paths.h"
#include "registry/session.h"

#include <ctime>

namespace hermes::registry {

std::string checkpoint_workspace(const CallContext& ctx) {
  const std::string& root = ctx.services.paths.root();
  if (!root.empty()) return root;
  return PathResolver::real_path(PathResolver::workspace(ctx.session.cwd()));
}

std::optional<checkpoint::Ticket> checkpoint_before(const ToolSpec& spec, const Json& args,
                                                    CallContext& ctx) {
  const checkpoint::Checkpoints* store = ctx.services.checkpoints;
  if (store == nullptr || !spec.changes) return std::nullopt;
  std::optional<checkpoint::Footprint> footprint = spec.changes(args);
  if (!footprint) return std::nullopt;
  checkpoint::Settings settings = checkpoint::settings_from(ctx.services.config);
  if (!settings.enabled) return std::nullopt;
  // Only the files of this host are kept: elsewhere the call is listed, its
  // changes not captured.
  std::string workspace = checkpoint_workspace(ctx);
  bool here = backend::files_on_this_host(ctx.services.config, workspace);
  checkpoint::CallInfo call{.root = std::move(workspace),
                            .tool = spec.name,
                            .summary = footprint->summary,
                            .session = ctx.session.id(),
                            .shell = footprint->shell || !here,
                            .shell_captured = here};
  if (here) {
    for (const std::string& given : footprint->paths) {
      auto resolved = ctx.services.paths.resolve(given, ctx.session.cwd());
      if (resolved) call.paths.push_back(resolved->real);
    }
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
  std::string workspace = checkpoint_workspace(ctx);
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
