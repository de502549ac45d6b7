// SPDX-License-Identifier: MIT
// patch: path guards and locks for both modes, the session's miss and
// malformed-call counters and their hints (docs/tools/patch.md).
#include "tools/patch/patch.h"

#include "core/config.h"
#include "fs/path_lock.h"
#include "registry/session.h"
#include "tools/file_common/file_access.h"
#include "tools/file_common/read_tracker.h"
#include "tools/file_common/write_safety.h"
#include "tools/patch/match/diagnostics.h"
#include "tools/patch/patch_state.h"
#include "tools/patch/v4a/apply.h"
#include "tools/patch/v4a/parser.h"

#include <string>

namespace hermes::patch {
namespace {

constexpr const char* kNotFoundHint =
    "old_string not found. Use read_file to verify the current content, or search_files to locate "
    "the text.";

// Workspace warnings for every relative path, joined.
std::string workspace_warning(const std::vector<ResolvedPath>& paths, const std::string& cwd) {
  std::string joined;
  for (const auto& p : paths) {
    if (auto w = file_common::outside_workspace_warning(p, cwd))
      joined += (joined.empty() ? "" : " | ") + *w;
  }
  return joined;
}

// "modified since you last read it" for every path the session read (or
// wrote) at another version than the one about to be edited.
std::string stale_warning(const std::vector<ResolvedPath>& paths, registry::CallContext& ctx,
                          const fs::FileSystem& fs) {
  const auto& tracker = ctx.session.state<file_common::ReadTracker>();
  std::string joined;
  for (const auto& p : paths) {
    file_common::FileVersion current;
    if (!file_common::stat_version(fs, p.real, current) ||
        !tracker.changed_since_read(p.real, current)) {
      continue;
    }
    joined += (joined.empty() ? "" : " | ") + std::string("Warning: ") + p.given +
              " was modified since you last read it. The edit was made to its current content; "
              "read it again to check the result.";
  }
  return joined;
}

void record_writes(registry::CallContext& ctx, const fs::FileSystem& fs,
                   const std::vector<ResolvedPath>& paths) {
  auto& tracker = ctx.session.state<file_common::ReadTracker>();
  for (const auto& p : paths) {
    file_common::FileVersion version;
    if (file_common::stat_version(fs, p.real, version)) {
      tracker.record_write(p.real, version, file_common::Baseline::kNotEarned);
    }
  }
}

bool has_dotdot(const std::string& path) {
  for (size_t at = 0; at <= path.size();) {
    size_t slash = path.find('/', at);
    if (path.substr(at, slash == std::string::npos ? std::string::npos : slash - at) == "..")
      return true;
    if (slash == std::string::npos) break;
    at = slash + 1;
  }
  return false;
}

// Resolves every V4A header path in place (absolute, real) and collects them.
Result<std::vector<ResolvedPath>> resolve_headers(std::vector<v4a::FileOp>& ops,
                                                  const file_common::FileAccess& access) {
  std::vector<ResolvedPath> out;
  auto resolve = [&](std::string& path) -> Status {
    if (path.empty()) return {};
    if (has_dotdot(path)) {
      return Error::InvalidArgument("V4A patch header contains '..' traversal: '" + path +
                                    "'. Use a path without '..' components.");
    }
    HERMES_ASSIGN_OR_RETURN(ResolvedPath r, access.resolve(path));
    path = r.real;
    out.push_back(std::move(r));
    return {};
  };
  for (auto& op : ops) {
    HERMES_TRY(resolve(op.path));
    HERMES_TRY(resolve(op.move_to));
  }
  return out;
}

// Both modes: `paths` receives every path resolved, `stale` the staleness
// warning, taken under the paths' locks before the edit.
Result<PatchSuccess> run_patch_mode(const PatchParams& params, registry::CallContext& ctx,
                                    const file_common::FileAccess& access,
                                    std::vector<ResolvedPath>& paths, std::string& stale) {
  auto ops = v4a::parse_patch(params.patch);
  if (!ops) return Error::InvalidArgument("Failed to parse patch: " + ops.error().message);
  HERMES_ASSIGN_OR_RETURN(paths, resolve_headers(*ops, access));
  HERMES_TRY(file_common::check_write_paths(paths, params.cross_profile, ctx, access.fs()));
  std::vector<std::string> reals;
  for (const auto& p : paths) reals.push_back(p.real);
  HERMES_ASSIGN_OR_RETURN(auto lock, file_common::take_writer_locks(reals, ctx));
  stale = stale_warning(paths, ctx, access.fs());
  v4a::ApplyRequest request{.ops = std::move(ops).value(),
                            .hermes_home = ctx.services.config.home(),
                            .fs = &access.fs(),
                            .on_host = access.files_on_host(),
                            .stop = ctx.stop};
  return v4a::apply_patch(request);
}

Result<PatchSuccess> run_replace_mode(const PatchParams& params, registry::CallContext& ctx,
                                      const file_common::FileAccess& access,
                                      std::vector<ResolvedPath>& paths, std::string& stale) {
  HERMES_ASSIGN_OR_RETURN(ResolvedPath path, access.resolve(params.path));
  paths = {path};
  HERMES_TRY(file_common::check_write_paths(paths, params.cross_profile, ctx, access.fs()));
  HERMES_ASSIGN_OR_RETURN(auto lock, file_common::take_writer_locks({path.real}, ctx));
  stale = stale_warning(paths, ctx, access.fs());
  return run_replace(path, params.replace, ctx.services.config.home(), access);
}

// The hint on a "Could not find" failure (docs/tools/patch.md); empty: none.
std::string miss_hint(const Error& error, const PatchParams& params, PatchState& state) {
  if (error.message.find("Could not find") == std::string::npos) return "";
  int misses = params.mode == PatchMode::kReplace ? state.record_miss(params.path) : 0;
  if (misses >= 3) {
    return "This is failure #" + std::to_string(misses) + " patching '" + params.path +
           "'. Stop retrying with variations of the same old_string. Either: (1) re-read the "
           "file fresh to verify current content, (2) use a longer / more unique old_string "
           "with surrounding context lines, or (3) use write_file to replace the entire file "
           "if the targeted region is hard to anchor.";
  }
  if (error.message.find(match::kDidYouMean) == std::string::npos) return kNotFoundHint;
  return "";
}

Result<PatchApplied> apply(const PatchParams& params, registry::CallContext& ctx,
                           PatchState& state) {
  HERMES_ASSIGN_OR_RETURN(file_common::FileAccess access, file_common::FileAccess::for_call(ctx));
  PatchApplied out;
  std::string stale;
  HERMES_ASSIGN_OR_RETURN(out.edit, params.mode == PatchMode::kPatch
                                        ? run_patch_mode(params, ctx, access, out.paths, stale)
                                        : run_replace_mode(params, ctx, access, out.paths, stale));
  if (!out.edit.no_change) record_writes(ctx, access.fs(), out.paths);
  if (params.mode == PatchMode::kReplace) state.record_success(params.path);
  std::string workspace = workspace_warning(out.paths, access.workspace());
  out.warning = stale.empty() || workspace.empty() ? stale + workspace : stale + " | " + workspace;
  return out;
}

}  // namespace

Result<PatchOutput> patch(const PatchParams& params, registry::CallContext& ctx) {
  auto& state = ctx.session.state<PatchState>();
  state.record_well_formed();
  Result<PatchApplied> applied = apply(params, ctx, state);
  if (applied) return PatchOutput{std::move(applied).value()};
  return PatchOutput{PatchFailed{applied.error(), miss_hint(applied.error(), params, state)}};
}

Result<PatchOutput> patch_rejected(const Error& error, registry::CallContext& ctx) {
  int n = ctx.session.state<PatchState>().record_malformed();
  if (n < 3) return PatchOutput{PatchFailed{error, ""}};
  return PatchOutput{PatchFailed{
      error, "This is malformed patch call #" + std::to_string(n) +
                 ". Replace mode needs path, old_string and new_string (strings); patch mode "
                 "needs mode='patch' and a V4A patch string."}};
}

const Error* patch_failure(const PatchOutput& output) {
  const auto* failed = std::get_if<PatchFailed>(&output);
  return failed ? &failed->error : nullptr;
}

}  // namespace hermes::patch
