// SPDX-License-Identifier: MIT
// write_file at the JSON edge: the arguments in, the result and the stale
// refusal out, and the registration.
#include "tools/write_file/write_file_json.h"

#include "json/json.h"
#include "registry/output_schema.h"
#include "registry/registry.h"
#include "registry/tool_args.h"
#include "registry/typed_tool.h"
#include "tools/write_file/write_file.h"
#include "tools/write_pipeline/lint_json.h"

#include <string>

namespace hermes::write_file {
namespace {

constexpr const char* kDescription =
    "Write content to a file, completely replacing existing content. Use this instead of "
    "echo/cat heredoc in terminal. Creates parent directories automatically. OVERWRITES the "
    "entire file — use 'patch' for targeted edits. Auto-runs syntax checks on "
    ".py/.json/.yaml/.toml and other linted languages; only NEW errors introduced by this write "
    "are surfaced (pre-existing errors are filtered out). The result's verified:true means the "
    "on-disk content hash was confirmed — do NOT re-read the file to check the write landed.";

Json to_json(const WriteFileWritten& written) {
  Json out = {{"bytes_written", written.bytes_written}, {"dirs_created", written.dirs_created}};
  if (written.verified) out["verified"] = true;
  out["lint"] = write_pipeline::lint_json(written.lint);
  out["resolved_path"] = written.resolved_path;
  out["files_modified"] = Json::array({written.absolute_path});
  if (!written.hint.empty()) out["hint"] = written.hint;
  if (!written.warning.empty()) out["_warning"] = written.warning;
  return out;
}

Json shape(registry::Of<WriteFileWritten>) {
  using registry::string_type;
  return registry::object_shape({
      registry::key("bytes_written", registry::integer_type()),
      registry::key("dirs_created", registry::boolean_type()),
      registry::optional_key("verified", registry::boolean_type()),
      registry::key("lint", write_pipeline::lint_shape()),
      registry::key("resolved_path", string_type()),
      registry::key("files_modified", registry::array_of(string_type())),
      registry::optional_key("hint", string_type()),
      registry::optional_key("_warning", string_type()),
  });
}

Json to_json(const WriteFileStale& stale) {
  return {{"error", stale.error.message},
          {"stale_write_blocked", true},
          {"path", stale.given},
          {"resolved_path", stale.resolved_path}};
}

Json shape(registry::Of<WriteFileStale>) { return registry::never_structured(); }

Json input_schema() {
  return Json::parse(R"json({
    "type": "object",
    "properties": {
      "path": {"type": "string", "description": "Path to the file to write (will be created if it doesn't exist, overwritten if it does)"},
      "content": {"type": "string", "description": "Complete content to write to the file"}
    },
    "required": ["path", "content"]
  })json");
}

}  // namespace

Result<WriteFileParams> parse_write_file_params(const Json& args) {
  auto path = args.find("path");
  if (path == args.end() || !path->is_string() || path->get<std::string>().empty()) {
    bool wrong_type = path != args.end() && !path->is_null() && !path->is_string();
    return Error::InvalidArgument(
        "write_file: missing required field 'path'. " +
        (wrong_type ? "'path' must be a string, got " + registry::python_type_name(*path) + "."
                    : std::string("Provide the file path to write.")));
  }
  auto content = args.find("content");
  if (content == args.end()) {
    return Error::InvalidArgument(
        "write_file: missing required field 'content'. Provide the complete file content "
        "(\"\" for an empty file).");
  }
  if (!content->is_string()) {
    return registry::wrong_argument_type("write_file", "content", "a string", *content);
  }
  HERMES_ASSIGN_OR_RETURN(std::optional<bool> cross_profile,
                          registry::optional_bool_arg(args, "write_file", "cross_profile"));
  return WriteFileParams{path->get<std::string>(), content->get<std::string>(),
                         cross_profile.value_or(false)};
}

Json write_file_json(const WriteFileOutput& output) {
  return std::visit([](const auto& outcome) { return to_json(outcome); }, output);
}

void register_write_file(registry::Registry& registry) {
  registry.add(registry::ToolSpec{
      .name = "write_file",
      .toolset = "file",
      .description = kDescription,
      .input_schema = input_schema(),
      .output_schema = registry::output_schema<WriteFileOutput>([](auto of) { return shape(of); }),
      .annotations = {.read_only = false, .destructive = true, .idempotent = true},
      .run = registry::typed_entry(registry::TypedTool<WriteFileParams, WriteFileOutput>{
          .parse = parse_write_file_params,
          .handler = write_file,
          .render = write_file_json,
          .failure = write_file_failure,
      }),
      .brief = write_pipeline::writes_briefly,
      .changes = registry::changes_when_parsed(
          parse_write_file_params,
          +[](const WriteFileParams& params) {
            return std::optional(checkpoint::Footprint{{params.path}, false, params.path});
          }),
  });
}

}  // namespace hermes::write_file
