// SPDX-License-Identifier: MIT
#include "tools/checkpoint/checkpoint.h"

#include "core/paths.h"
#include "registry/checkpoint_hook.h"
#include "registry/client_channel.h"
#include "registry/elicitation.h"
#include "registry/session.h"
#include "tools/patch/unified_diff.h"

namespace hermes::checkpoint_tool {

namespace {

using checkpoint::Kind;
using checkpoint::PathState;

// A state's text in a diff: a file's bytes, a link's target.
Result<std::string> text_of(const PathState& state, const checkpoint::WorkspaceObjects& store) {
  if (state.kind == Kind::kSymlink) return "-> " + state.target + "\n";
  if (state.kind != Kind::kFile) return std::string();
  if (state.blob.empty()) return std::string("(content not kept: over the size cap)\n");
  return store.get(state.blob);
}

std::string mode_lines(const PathState& from, const PathState& to) {
  if (from.kind == Kind::kAbsent || to.kind == Kind::kAbsent || from.mode == to.mode) return "";
  char lines[64];
  std::snprintf(lines, sizeof lines, "old mode %o\nnew mode %o\n", from.mode, to.mode);
  return lines;
}

// One path's part of the diff, in `diff -u` / git's terms.
Result<std::string> diff_path(const checkpoint::PathChange& change,
                              const checkpoint::WorkspaceObjects& store) {
  const PathState& from = change.from;
  const PathState& to = change.to;
  std::string a = from.kind == Kind::kAbsent ? "/dev/null" : patch::diff_label("a", change.path);
  std::string b = to.kind == Kind::kAbsent ? "/dev/null" : patch::diff_label("b", change.path);
  std::string out = mode_lines(from, to);
  if (from.kind == Kind::kIgnoredDir || to.kind == Kind::kIgnoredDir) {
    const char* what = to.kind == Kind::kAbsent     ? "removed ignored directory "
                       : from.kind == Kind::kAbsent ? "new ignored directory "
                                                    : "changed ignored directory ";
    return out + what + change.path + " (contents not kept)\n";
  }
  if (from.kind == Kind::kDir || to.kind == Kind::kDir) {
    if (from.kind == to.kind) return out.empty() ? out : "mode " + change.path + "\n" + out;
    out += (to.kind == Kind::kDir ? "new directory " : "removed directory ") + change.path + "\n";
    if (from.kind == Kind::kAbsent || to.kind == Kind::kAbsent) return out;
  } else if (!out.empty()) {
    out = "mode " + change.path + "\n" + out;
  }
  HERMES_ASSIGN_OR_RETURN(std::string old_text, text_of(from, store));
  HERMES_ASSIGN_OR_RETURN(std::string new_text, text_of(to, store));
  if (old_text.find('\0') != std::string::npos || new_text.find('\0') != std::string::npos) {
    return out + "Binary files " + a + " and " + b + " differ\n";
  }
  return out + patch::unified_diff(old_text, new_text, a, b);
}

Result<CheckpointOutput> diff(const CheckpointParams& params,
                              const registry::CheckpointPlace& place,
                              const checkpoint::Checkpoints& store) {
  HERMES_ASSIGN_OR_RETURN(auto changes,
                          store.changes(place.root, params.id, params.to, place.remote));
  CheckpointDiff out;
  checkpoint::WorkspaceObjects objects = store.objects_of(place.root, place.remote.target);
  for (const checkpoint::PathChange& change : changes) {
    HERMES_ASSIGN_OR_RETURN(std::string part, diff_path(change, objects));
    out.diff += part;
    out.paths.push_back(change.path);
  }
  return CheckpointOutput(std::move(out));
}

// `paths` as the journal names them: relative to the workspace root.
std::vector<std::string> relative_paths(const std::vector<std::string>& paths,
                                        const std::string& root) {
  std::vector<std::string> out;
  for (const std::string& given : paths) {
    std::string absolute =
        PathResolver::normalize(given.starts_with('/') ? given : root + "/" + given);
    if (absolute == root) return {};  // the whole workspace
    out.push_back(checkpoint::relative_to(root, absolute).value_or(given));
  }
  return out;
}

std::string joined(const std::vector<std::string>& paths) {
  std::string list;
  for (const std::string& path : paths) list += (list.empty() ? "" : ", ") + path;
  return list;
}

// Asks the user, when the client can be asked, whether the restore may
// overwrite the edits made by hand to `paths`.
bool user_allows_overwrite(registry::CallContext& ctx, uint64_t id,
                           const std::vector<std::string>& paths) {
  if (!ctx.client.supports_elicitation()) return false;
  auto answer = registry::elicit(
      ctx.client,
      {.message = "Restore checkpoint " + std::to_string(id) +
                  "? These paths changed since the agent last wrote them, and the restore "
                  "overwrites those changes: " +
                  joined(paths)},
      std::chrono::minutes(5), ctx.stop);
  return answer && answer->action == "accept";
}

Result<CheckpointOutput> restore(const CheckpointParams& params,
                                 const registry::CheckpointPlace& place,
                                 registry::CallContext& ctx) {
  checkpoint::RestoreRequest request{.root = place.root,
                                     .id = params.id,
                                     .paths = relative_paths(params.paths, place.root),
                                     .force = params.force,
                                     .session = ctx.session.id(),
                                     .remote = place.remote};
  checkpoint::Settings settings = checkpoint::settings_from(ctx.services.config);
  HERMES_ASSIGN_OR_RETURN(checkpoint::RestoreReport report,
                          ctx.services.checkpoints->restore(request, settings));
  bool refused = !report.hand_edited.empty() && report.checkpoint == 0;
  bool asked = refused && user_allows_overwrite(ctx, params.id, report.hand_edited);
  if (asked) {
    // Those paths only: a path edited by hand after the question is
    // refused again, never overwritten unasked.
    request.overwrite = report.hand_edited;
    HERMES_ASSIGN_OR_RETURN(report, ctx.services.checkpoints->restore(request, settings));
    refused = !report.hand_edited.empty() && report.checkpoint == 0;
  }
  if (refused) {
    std::string why = ctx.client.supports_elicitation() && !asked
                          ? ". The user did not agree to overwrite them"
                          : "";
    return CheckpointOutput(CheckpointRefused{
        Error{ErrorCode::kConflict,
              "Restore refused: changed since the agent last wrote them: " +
                  joined(report.hand_edited) + why +
                  ". Nothing was restored. Pass force=true to overwrite them, or `paths` "
                  "without them."},
        report.hand_edited});
  }
  return CheckpointOutput(CheckpointRestored{std::move(report)});
}

}  // namespace

Result<CheckpointOutput> checkpoint(const CheckpointParams& params, registry::CallContext& ctx) {
  const checkpoint::Checkpoints* store = ctx.services.checkpoints;
  if (store == nullptr) return Error::Unavailable("Checkpoints are not kept by this server");
  HERMES_ASSIGN_OR_RETURN(registry::CheckpointPlace place, registry::checkpoint_place(ctx));
  switch (params.action) {
    case Action::kList: {
      HERMES_ASSIGN_OR_RETURN(auto all, store->list(place.root, place.remote.target));
      return CheckpointOutput(CheckpointList{std::move(all)});
    }
    case Action::kDiff:
      return diff(params, place, *store);
    case Action::kRestore:
      return restore(params, place, ctx);
  }
  return Error::InvalidArgument("Unknown checkpoint action");
}

const Error* checkpoint_failure(const CheckpointOutput& output) {
  const auto* refused = std::get_if<CheckpointRefused>(&output);
  return refused ? &refused->error : nullptr;
}

}  // namespace hermes::checkpoint_tool
