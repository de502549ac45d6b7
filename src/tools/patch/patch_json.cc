// SPDX-License-Identifier: MIT
// patch at the JSON edge: the arguments in, the result and the failure (with
// its hint) out, and the registration.
#include "tools/patch/patch_json.h"

#include "json/json.h"
#include "registry/output_schema.h"
#include "registry/registry.h"
#include "registry/tool_args.h"
#include "registry/typed_tool.h"
#include "tools/patch/patch.h"
#include "tools/patch/v4a/parser.h"
#include "tools/write_pipeline/lint_json.h"

#include <string>

namespace hermes::patch {
namespace {

constexpr const char* kDescription =
    "Targeted find-and-replace edits in files. Use this instead of sed/awk in terminal. Uses fuzzy "
    "matching (9 strategies) so minor whitespace/indentation differences won't break it. Returns a "
    "unified diff. Auto-runs syntax checks after editing.\n\n"
    "REPLACE MODE (mode='replace', default): find a unique string and replace it. REQUIRED "
    "PARAMETERS: mode, path, old_string, new_string.\n"
    "PATCH MODE (mode='patch'): apply V4A multi-file patches for bulk changes. REQUIRED "
    "PARAMETERS: mode, patch.";

Result<std::optional<std::string>> string_field(const Json& args, const char* key) {
  return registry::optional_string_arg(args, "patch", key);
}

// A V4A patch may name any number of files, each linted: not brief.
bool replaces_briefly(const Json& args, registry::BriefFindings& found) {
  auto mode = args.find("mode");
  const bool replace = mode == args.end() || (mode->is_string() && *mode == "replace");
  return replace && write_pipeline::writes_briefly(args, found);
}

Result<PatchParams> parse_replace_params(const Json& args, PatchParams out) {
  HERMES_ASSIGN_OR_RETURN(auto path, string_field(args, "path"));
  out.path = path.value_or("");
  if (out.path.empty()) return Error::InvalidArgument("path required");
  HERMES_ASSIGN_OR_RETURN(auto old_text, string_field(args, "old_string"));
  HERMES_ASSIGN_OR_RETURN(auto new_text, string_field(args, "new_string"));
  if (!old_text || !new_text) return Error::InvalidArgument("old_string and new_string required");
  HERMES_ASSIGN_OR_RETURN(auto replace_all,
                          registry::optional_bool_arg(args, "patch", "replace_all"));
  out.replace = {*old_text, *new_text, replace_all.value_or(false)};
  return out;
}

Json lint_of(const PatchApplied& applied) {
  const auto& lint = applied.edit.lint;
  if (lint.size() == 1 && applied.paths.size() == 1)
    return write_pipeline::lint_json(lint[0].second);
  Json out = Json::object();
  for (const auto& [path, report] : lint) out[path] = write_pipeline::lint_json(report);
  return out;
}

Json to_json(const PatchApplied& applied) {
  const PatchSuccess& edit = applied.edit;
  Json out = object_with_room(11);
  out["success"] = true;
  if (edit.no_change) {
    out["no_change"] = true;
    out["note"] = edit.note;
  } else {
    out["diff"] = edit.diff;
  }
  out["files_modified"] = edit.files_modified;
  if (!edit.files_created.empty()) out["files_created"] = edit.files_created;
  if (!edit.files_deleted.empty()) out["files_deleted"] = edit.files_deleted;
  if (!edit.lint.empty()) out["lint"] = lint_of(applied);
  if (edit.strategy) out["match_strategy"] = std::string(match::strategy_name(*edit.strategy));
  if (applied.paths.size() == 1) out["resolved_path"] = applied.paths[0].real;
  if (!applied.warning.empty()) out["_warning"] = applied.warning;
  return out;
}

Json shape(registry::Of<PatchApplied>) {
  using registry::boolean_type, registry::string_type;
  const Json paths = registry::array_of(string_type());
  const Json lint = write_pipeline::lint_shape();
  return registry::object_shape({
      registry::key("success", boolean_type()),
      registry::optional_key("no_change", boolean_type()),
      registry::optional_key("note", string_type()),
      registry::optional_key("diff", string_type()),
      registry::key("files_modified", paths),
      registry::optional_key("files_created", paths),
      registry::optional_key("files_deleted", paths),
      // One file's report, or a report per path.
      registry::optional_key("lint", registry::any_of({lint, registry::map_of(lint)})),
      registry::optional_key("match_strategy", string_type()),
      registry::optional_key("resolved_path", string_type()),
      registry::optional_key("_warning", string_type()),
  });
}

Json to_json(const PatchFailed& failed) {
  Json out = {{"success", false}, {"error", failed.error.message}};
  if (!failed.hint.empty()) out["_hint"] = failed.hint;
  return out;
}

Json shape(registry::Of<PatchFailed>) { return registry::never_structured(); }

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

Result<PatchParams> parse_patch_params(const Json& args) {
  PatchParams out;
  HERMES_ASSIGN_OR_RETURN(auto mode, string_field(args, "mode"));
  HERMES_ASSIGN_OR_RETURN(auto cross_profile,
                          registry::optional_bool_arg(args, "patch", "cross_profile"));
  out.cross_profile = cross_profile.value_or(false);
  const std::string name = mode.value_or("replace");
  if (name == "replace") return parse_replace_params(args, std::move(out));
  if (name != "patch") return Error::InvalidArgument("Unknown mode: " + name);
  out.mode = PatchMode::kPatch;
  HERMES_ASSIGN_OR_RETURN(auto patch, string_field(args, "patch"));
  out.patch = patch.value_or("");
  if (out.patch.empty()) return Error::InvalidArgument("patch content required");
  return out;
}

namespace {

// The files a call names: its path, or every path (and move target) of its
// V4A operations; a patch that does not parse changes nothing.
std::optional<checkpoint::Footprint> patch_footprint(const PatchParams& params) {
  if (params.mode == PatchMode::kReplace) {
    return checkpoint::Footprint{{params.path}, false, params.path};
  }
  auto ops = v4a::parse_patch(params.patch);
  if (!ops) return std::nullopt;
  checkpoint::Footprint footprint;
  for (const v4a::FileOp& op : *ops) {
    footprint.paths.push_back(op.path);
    if (!op.move_to.empty()) footprint.paths.push_back(op.move_to);
  }
  for (const std::string& path : footprint.paths) {
    footprint.summary += (footprint.summary.empty() ? "" : ", ") + path;
  }
  return footprint;
}

}  // namespace

Json patch_json(const PatchOutput& output) {
  return std::visit([](const auto& outcome) { return to_json(outcome); }, output);
}

void register_patch(registry::Registry& registry) {
  registry.add(registry::ToolSpec{
      .name = "patch",
      .toolset = "file",
      .description = kDescription,
      .input_schema = input_schema(),
      .output_schema = registry::output_schema<PatchOutput>([](auto of) { return shape(of); }),
      .annotations = {.read_only = false, .destructive = true, .idempotent = false},
      .run = registry::typed_entry(registry::TypedTool<PatchParams, PatchOutput>{
          .parse = parse_patch_params,
          .handler = patch,
          .render = patch_json,
          .failure = patch_failure,
          .rejected = patch_rejected,
      }),
      .brief = replaces_briefly,
      .changes = registry::changes_when_parsed(parse_patch_params, patch_footprint),
  });
}

}  // namespace hermes::patch
