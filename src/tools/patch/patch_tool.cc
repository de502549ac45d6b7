// SPDX-License-Identifier: MIT
// patch: registration, argument parsing, path guards and locks for both
// modes, the failure hints, and the result JSON (docs/tools/patch.md).
#include "core/config.h"
#include "core/json.h"
#include "core/paths.h"
#include "fs/path_lock.h"
#include "registry/dispatcher.h"
#include "registry/registry.h"
#include "registry/session.h"
#include "registry/tool_args.h"
#include "tools/file_common/file_access.h"
#include "tools/file_common/read_tracker.h"
#include "tools/file_common/write_safety.h"
#include "tools/patch/match/diagnostics.h"
#include "tools/patch/patch_state.h"
#include "tools/patch/replace_mode.h"
#include "tools/patch/v4a/apply.h"
#include "tools/patch/v4a/parser.h"
#include "tools/write_pipeline/lint_json.h"

#include <string>

namespace hermes {
namespace {

constexpr const char* kDescription =
    "Targeted find-and-replace edits in files. Use this instead of sed/awk in terminal. Uses fuzzy "
    "matching (9 strategies) so minor whitespace/indentation differences won't break it. Returns a "
    "unified diff. Auto-runs syntax checks after editing.\n\n"
    "REPLACE MODE (mode='replace', default): find a unique string and replace it. REQUIRED "
    "PARAMETERS: mode, path, old_string, new_string.\n"
    "PATCH MODE (mode='patch'): apply V4A multi-file patches for bulk changes. REQUIRED "
    "PARAMETERS: mode, patch.";

constexpr const char* kNotFoundHint =
    "old_string not found. Use read_file to verify the current content, or search_files to locate "
    "the text.";

struct PatchArgs {
  std::string mode = "replace";
  std::string path;
  ReplaceArgs replace;
  std::string patch;
  bool cross_profile = false;
};

Result<std::optional<std::string>> string_field(const Json& args, const char* key) {
  return optional_string_arg(args, "patch", key);
}

Result<PatchArgs> parse_args(const Json& args) {
  PatchArgs out;
  HERMES_ASSIGN_OR_RETURN(auto mode, string_field(args, "mode"));
  out.mode = mode.value_or("replace");
  HERMES_ASSIGN_OR_RETURN(auto cross_profile, optional_bool_arg(args, "patch", "cross_profile"));
  out.cross_profile = cross_profile.value_or(false);
  if (out.mode == "patch") {
    HERMES_ASSIGN_OR_RETURN(auto patch, string_field(args, "patch"));
    out.patch = patch.value_or("");
    if (out.patch.empty()) return Error::InvalidArgument("patch content required");
    return out;
  }
  if (out.mode != "replace") return Error::InvalidArgument("Unknown mode: " + out.mode);
  HERMES_ASSIGN_OR_RETURN(auto path, string_field(args, "path"));
  out.path = path.value_or("");
  if (out.path.empty()) return Error::InvalidArgument("path required");
  HERMES_ASSIGN_OR_RETURN(auto old_text, string_field(args, "old_string"));
  HERMES_ASSIGN_OR_RETURN(auto new_text, string_field(args, "new_string"));
  if (!old_text || !new_text) return Error::InvalidArgument("old_string and new_string required");
  HERMES_ASSIGN_OR_RETURN(auto replace_all, optional_bool_arg(args, "patch", "replace_all"));
  out.replace = {*old_text, *new_text, replace_all.value_or(false)};
  return out;
}

Json failure_json(const std::string& message) { return {{"success", false}, {"error", message}}; }

Json success_json(const PatchSuccess& ok, const std::vector<ResolvedPath>& paths) {
  Json out = {{"success", true}};
  if (ok.no_change) {
    out["no_change"] = true;
    out["note"] = ok.note;
  } else {
    out["diff"] = ok.diff;
  }
  out["files_modified"] = ok.files_modified;
  if (!ok.files_created.empty()) out["files_created"] = ok.files_created;
  if (!ok.files_deleted.empty()) out["files_deleted"] = ok.files_deleted;
  if (ok.lint.size() == 1 && paths.size() == 1) {
    out["lint"] = lint_json(ok.lint[0].second);
  } else if (!ok.lint.empty()) {
    Json lint = Json::object();
    for (const auto& [path, report] : ok.lint) lint[path] = lint_json(report);
    out["lint"] = lint;
  }
  if (ok.strategy) out["match_strategy"] = std::string(match::strategy_name(*ok.strategy));
  if (paths.size() == 1) out["resolved_path"] = paths[0].real;
  return out;
}

// Workspace warnings for every relative path, joined.
void add_workspace_warning(Json& out, const std::vector<ResolvedPath>& paths,
                           const std::string& cwd) {
  std::string joined;
  for (const auto& p : paths) {
    if (auto w = outside_workspace_warning(p, cwd)) joined += (joined.empty() ? "" : " | ") + *w;
  }
  if (!joined.empty()) out["_warning"] = joined;
}

void record_writes(CallContext& ctx, const FileSystem& fs, const std::vector<ResolvedPath>& paths) {
  auto& tracker = ctx.session.state<ReadTracker>();
  for (const auto& p : paths) {
    FileVersion version;
    if (stat_version(fs, p.real, version)) {
      tracker.record_write(p.real, version, Baseline::kNotEarned);
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
                                                  const FileAccess& access) {
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

std::variant<PatchSuccess, PatchFailure> run_patch_mode(const PatchArgs& args, CallContext& ctx,
                                                        const FileAccess& access,
                                                        std::vector<ResolvedPath>& paths) {
  auto ops = v4a::parse_patch(args.patch);
  if (!ops) return PatchFailure{"Failed to parse patch: " + ops.error().message};
  auto resolved = resolve_headers(*ops, access);
  if (!resolved) return PatchFailure{resolved.error().message};
  paths = std::move(resolved).value();
  if (Status allowed = check_write_paths(paths, args.cross_profile, ctx, access.fs()); !allowed) {
    return PatchFailure{allowed.error().message};
  }
  std::vector<std::string> reals;
  for (const auto& p : paths) reals.push_back(p.real);
  PathLocks lock(reals);
  return v4a::apply_patch({std::move(ops).value(),
                           ctx.services.config.home(),
                           {},
                           &access.fs(),
                           access.files_on_host(),
                           ctx.stop});
}

std::variant<PatchSuccess, PatchFailure> run_replace_mode(const PatchArgs& args, CallContext& ctx,
                                                          const FileAccess& access,
                                                          std::vector<ResolvedPath>& paths) {
  auto path = access.resolve(args.path);
  if (!path) return PatchFailure{path.error().message};
  paths = {*path};
  if (Status allowed = check_write_paths(paths, args.cross_profile, ctx, access.fs()); !allowed) {
    return PatchFailure{allowed.error().message};
  }
  PathLocks lock({path->real});
  return run_replace(*path, args.replace, ctx.services.config.home(), access);
}

// The hints on "Could not find" failures (docs/tools/patch.md).
void add_miss_hint(Json& out, const PatchArgs& args, PatchState& state) {
  const std::string error = out.value("error", "");
  if (error.find("Could not find") == std::string::npos) return;
  int misses = args.mode == "replace" ? state.record_miss(args.path) : 0;
  if (misses >= 3) {
    out["_hint"] =
        "This is failure #" + std::to_string(misses) + " patching '" + args.path +
        "'. Stop retrying with variations of the same old_string. Either: (1) re-read the "
        "file fresh to verify current content, (2) use a longer / more unique old_string "
        "with surrounding context lines, or (3) use write_file to replace the entire file "
        "if the targeted region is hard to anchor.";
  } else if (error.find(match::kDidYouMean) == std::string::npos) {
    out["_hint"] = kNotFoundHint;
  }
}

Json patch(const Json& raw, CallContext& ctx) {
  auto& state = ctx.session.state<PatchState>();
  auto args = parse_args(raw);
  if (!args) {
    Json out = failure_json(args.error().message);
    int n = state.record_malformed();
    if (n >= 3) {
      out["_hint"] = "This is malformed patch call #" + std::to_string(n) +
                     ". Replace mode needs path, old_string and new_string (strings); patch mode "
                     "needs mode='patch' and a V4A patch string.";
    }
    return out;
  }
  state.record_well_formed();
  auto access = FileAccess::for_call(ctx);
  if (!access) return failure_json(access.error().message);
  std::vector<ResolvedPath> paths;
  auto result = args->mode == "patch" ? run_patch_mode(*args, ctx, *access, paths)
                                      : run_replace_mode(*args, ctx, *access, paths);
  if (auto* failure = std::get_if<PatchFailure>(&result)) {
    Json out = failure_json(failure->message);
    add_miss_hint(out, *args, state);
    return out;
  }
  const auto& ok = std::get<PatchSuccess>(result);
  if (!ok.no_change) record_writes(ctx, access->fs(), paths);
  if (args->mode == "replace") state.record_success(args->path);
  Json out = success_json(ok, paths);
  add_workspace_warning(out, paths, access->workspace());
  return out;
}

Json input_schema() {
  return Json::parse(R"json({
    "type": "object",
    "properties": {
      "mode": {"type": "string", "enum": ["replace", "patch"], "default": "replace",
               "description": "Edit mode: 'replace' for targeted find-and-replace, 'patch' for V4A multi-file patches"},
      "path": {"type": "string", "description": "File path to edit (required for 'replace' mode)"},
      "old_string": {"type": "string", "description": "Text to find in the file (required for 'replace' mode). Must be unique in the file unless replace_all=true. Include enough surrounding context to ensure uniqueness."},
      "new_string": {"type": "string", "description": "Replacement text (required for 'replace' mode). Can be empty string to delete the matched text."},
      "replace_all": {"type": "boolean", "default": false, "description": "Replace all occurrences instead of requiring a unique match (default: false)"},
      "patch": {"type": "string", "description": "V4A format patch content (required for 'patch' mode)"}
    },
    "required": ["mode"]
  })json");
}

}  // namespace

void register_patch(Registry& registry) {
  registry.add(ToolSpec{
      .name = "patch",
      .toolset = "file",
      .description = kDescription,
      .input_schema = input_schema(),
      .annotations = {.read_only = false, .destructive = true, .idempotent = false},
      .handler = patch,
  });
}

}  // namespace hermes
