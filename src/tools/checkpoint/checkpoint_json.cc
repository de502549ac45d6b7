// SPDX-License-Identifier: MIT
// checkpoint at the JSON edge: the arguments in, each action's JSON out
// (docs/tools/checkpoint.md), and the registration.
#include "tools/checkpoint/checkpoint_json.h"

#include "json/json.h"
#include "registry/output_schema.h"
#include "registry/registry.h"
#include "registry/tool_args.h"
#include "registry/typed_tool.h"

#include <ctime>

namespace hermes::checkpoint_tool {
namespace {

constexpr const char* kTool = "checkpoint";

constexpr const char* kDescription =
    "Checkpoints of the workspace, recorded before every call that can change it "
    "(write_file, patch, terminal, execute_code). Actions: 'list' (every checkpoint, oldest "
    "first, with the paths its call changed), 'diff' (unified diff from the state before "
    "checkpoint `id` to now, or to before checkpoint `to`), 'restore' (the workspace back to "
    "exactly the state before checkpoint `id`: contents, deletions, new files and directories "
    "removed, modes, symlinks; `paths` restores only those). A restore is itself a checkpoint, "
    "so it can be undone. Paths changed by hand since the agent last wrote them are not "
    "overwritten: the restore is refused with their list unless force=true.";

Json schema() {
  return Json{{"type", "object"},
              {"properties",
               {{"action",
                 {{"type", "string"},
                  {"enum", {"list", "diff", "restore"}},
                  {"description", "list, diff or restore"}}},
                {"id", {{"type", "integer"}, {"description", "The checkpoint (diff, restore)."}}},
                {"to",
                 {{"type", "integer"},
                  {"description", "diff: the later checkpoint to compare with (default: now)."}}},
                {"paths",
                 {{"type", "array"},
                  {"items", {{"type", "string"}}},
                  {"description", "restore: only these paths (files or directories)."}}},
                {"force",
                 {{"type", "boolean"},
                  {"description",
                   "restore: overwrite paths edited by hand since the agent wrote them."}}}}},
              {"required", {"action"}}};
}

Result<uint64_t> checkpoint_id(const Json& args, const char* name) {
  std::optional<int64_t> id = registry::coerce_int_arg(args, name);
  if (!id || *id <= 0) {
    return Error::InvalidArgument(std::string(kTool) + ": '" + name +
                                  "' must be a checkpoint id (a positive integer).");
  }
  return static_cast<uint64_t>(*id);
}

Result<std::vector<std::string>> string_list(const Json& args, const char* name) {
  std::vector<std::string> out;
  auto it = args.find(name);
  if (it == args.end() || it->is_null()) return out;
  if (!it->is_array()) return registry::wrong_argument_type(kTool, name, "a list of strings", *it);
  for (const Json& item : *it) {
    if (!item.is_string())
      return registry::wrong_argument_type(kTool, name, "a list of strings", item);
    out.push_back(item.get<std::string>());
  }
  return out;
}

std::string utc_time(int64_t seconds) {
  std::time_t t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

Json to_json(const CheckpointList& list) {
  Json items = Json::array();
  for (const checkpoint::Checkpoint& c : list.checkpoints) {
    Json paths = Json::array();
    for (const auto& [path, state] : c.after) paths.push_back(path);
    Json item{{"id", c.id},
              {"created", utc_time(c.created)},
              {"tool", c.tool},
              {"summary", c.summary},
              {"paths", std::move(paths)}};
    if (!c.finished) item["in_progress"] = true;
    if (c.coverage == checkpoint::Coverage::kNotCaptured) {
      item["note"] = "shell changes not captured: this backend's files are not on this host";
    } else if (c.coverage == checkpoint::Coverage::kTooLarge) {
      item["note"] =
          "shell changes not captured: the workspace has more entries than "
          "checkpoints.max_scan_entries";
    }
    items.push_back(std::move(item));
  }
  return Json{{"checkpoints", std::move(items)}};
}

Json shape(registry::Of<CheckpointList>) {
  using registry::string_type;
  Json item = registry::object_shape({
      registry::key("id", registry::integer_type()),
      registry::key("created", string_type()),
      registry::key("tool", string_type()),
      registry::key("summary", string_type()),
      registry::key("paths", registry::array_of(string_type())),
      registry::optional_key("in_progress", registry::boolean_type()),
      registry::optional_key("note", string_type()),
  });
  return registry::object_shape({registry::key("checkpoints", registry::array_of(item))});
}

Json to_json(const CheckpointDiff& diff) {
  return Json{{"diff", diff.diff}, {"paths", diff.paths}};
}

Json shape(registry::Of<CheckpointDiff>) {
  using registry::string_type;
  return registry::object_shape({registry::key("diff", string_type()),
                                 registry::key("paths", registry::array_of(string_type()))});
}

Json to_json(const CheckpointRestored& restored) {
  const checkpoint::RestoreReport& r = restored.report;
  Json missed = Json::array();
  for (const auto& [path, why] : r.not_restored)
    missed.push_back({{"path", path}, {"reason", why}});
  Json out{{"success", r.not_restored.empty()},
           {"checkpoint", r.checkpoint},
           {"restored", r.restored},
           {"not_restored", std::move(missed)}};
  if (!r.hand_edited.empty()) out["overwritten_hand_edits"] = r.hand_edited;
  return out;
}

Json shape(registry::Of<CheckpointRestored>) {
  using registry::string_type;
  Json missed = registry::object_shape(
      {registry::key("path", string_type()), registry::key("reason", string_type())});
  return registry::object_shape({
      registry::key("success", registry::boolean_type()),
      registry::key("checkpoint", registry::integer_type()),
      registry::key("restored", registry::array_of(string_type())),
      registry::key("not_restored", registry::array_of(missed)),
      registry::optional_key("overwritten_hand_edits", registry::array_of(string_type())),
  });
}

Json to_json(const CheckpointRefused& refused) {
  return Json{
      {"success", false}, {"error", refused.error.message}, {"hand_edited", refused.hand_edited}};
}

// A refusal is a failure (isError): text only.
Json shape(registry::Of<CheckpointRefused>) { return registry::never_structured(); }

}  // namespace

Result<CheckpointParams> parse_checkpoint_params(const Json& args) {
  CheckpointParams out;
  HERMES_ASSIGN_OR_RETURN(auto action, registry::optional_string_arg(args, kTool, "action"));
  std::string name = action.value_or("");
  if (name == "list") return out;
  if (name == "diff") {
    out.action = Action::kDiff;
  } else if (name == "restore") {
    out.action = Action::kRestore;
  } else {
    return Error::InvalidArgument("Unknown checkpoint action: " + name +
                                  ". Use: list, diff, restore");
  }
  HERMES_ASSIGN_OR_RETURN(out.id, checkpoint_id(args, "id"));
  if (out.action == Action::kDiff && args.contains("to") && !args["to"].is_null()) {
    HERMES_ASSIGN_OR_RETURN(out.to, checkpoint_id(args, "to"));
  }
  if (out.action == Action::kRestore) {
    HERMES_ASSIGN_OR_RETURN(out.paths, string_list(args, "paths"));
    HERMES_ASSIGN_OR_RETURN(auto force, registry::optional_bool_arg(args, kTool, "force"));
    out.force = force.value_or(false);
  }
  return out;
}

Json checkpoint_json(const CheckpointOutput& output) {
  return std::visit([](const auto& outcome) { return to_json(outcome); }, output);
}

void register_checkpoint(registry::Registry& registry) {
  registry.add(registry::ToolSpec{
      .name = "checkpoint",
      .toolset = "file",
      .description = kDescription,
      .input_schema = schema(),
      .output_schema = registry::output_schema<CheckpointOutput>([](auto of) { return shape(of); }),
      .annotations = {.read_only = false, .destructive = true, .idempotent = false},
      .run = registry::typed_entry(registry::TypedTool<CheckpointParams, CheckpointOutput>{
          .parse = parse_checkpoint_params,
          .handler = checkpoint,
          .render = checkpoint_json,
          .failure = checkpoint_failure,
      }),
  });
}

}  // namespace hermes::checkpoint_tool
