// SPDX-License-Identifier: MIT
// write_file: registration, argument parsing, the guard sequence of
// file-tools.md §2.2 and the §2.4 result JSON.
#include <string>
#include <unordered_set>

#include "core/config.h"
#include "core/json.h"
#include "core/paths.h"
#include "fs/path_lock.h"
#include "tools/file_common/file_access.h"
#include "registry/dispatcher.h"
#include "registry/registry.h"
#include "registry/session.h"
#include "tools/file_common/read_tracker.h"
#include "tools/file_common/write_safety.h"
#include "tools/write_file/file_writer.h"
#include "tools/write_file/lint.h"
#include "tools/write_file/lint_json.h"
#include "tools/write_file/write_guards.h"

namespace hermes {
namespace {

constexpr const char* kDescription =
    "Write content to a file, completely replacing existing content. Use this instead of "
    "echo/cat heredoc in terminal. Creates parent directories automatically. OVERWRITES the "
    "entire file — use 'patch' for targeted edits. Auto-runs syntax checks on "
    ".py/.json/.yaml/.toml and other linted languages; only NEW errors introduced by this write "
    "are surfaced (pre-existing errors are filtered out). The result's verified:true means the "
    "on-disk content hash was confirmed — do NOT re-read the file to check the write landed.";

struct WriteFileArgs {
  std::string path;
  std::string content;
  bool cross_profile = false;
};

// Python's type names, as the upstream message shows them.
std::string py_type(const Json& value) {
  if (value.is_object()) return "dict";
  if (value.is_array()) return "list";
  if (value.is_boolean()) return "bool";
  if (value.is_number_integer()) return "int";
  if (value.is_number()) return "float";
  if (value.is_null()) return "NoneType";
  return "str";
}

Result<WriteFileArgs> parse_args(const Json& args) {
  auto path = args.find("path");
  if (path == args.end() || !path->is_string() || path->get<std::string>().empty()) {
    return Error::InvalidArgument(
        "write_file: missing required field 'path'. Provide the file path to write.");
  }
  auto content = args.find("content");
  if (content == args.end()) {
    return Error::InvalidArgument(
        "write_file: missing required field 'content'. Provide the complete file content "
        "(\"\" for an empty file).");
  }
  if (!content->is_string()) {
    return Error::InvalidArgument("write_file: 'content' must be a string, got " +
                                  py_type(*content) + ".");
  }
  WriteFileArgs out{path->get<std::string>(), content->get<std::string>(), false};
  if (auto it = args.find("cross_profile"); it != args.end() && it->is_boolean()) {
    out.cross_profile = it->get<bool>();
  }
  return out;
}

// §2.4: overwriting a large file that mostly stayed the same.
std::optional<std::string> rewrite_hint(const std::optional<std::string>& old, const std::string& now) {
  if (!old || now.size() < 20000 || now.size() > 400000) return std::nullopt;
  std::unordered_multiset<std::string_view> before;
  std::string_view rest = *old;
  for (size_t nl; (nl = rest.find('\n')) != std::string_view::npos; rest.remove_prefix(nl + 1)) {
    before.insert(rest.substr(0, nl));
  }
  size_t total = 0, same = 0;
  rest = now;
  for (size_t nl; (nl = rest.find('\n')) != std::string_view::npos; rest.remove_prefix(nl + 1)) {
    ++total;
    auto it = before.find(rest.substr(0, nl));
    if (it != before.end()) {
      ++same;
      before.erase(it);
    }
  }
  if (total == 0 || same * 5 < total * 4) return std::nullopt;
  return "Only " + std::to_string(total - same) + " of " + std::to_string(total) +
         " lines actually changed. Use patch for targeted edits instead of rewriting the whole file.";
}

Json stale_error(const ResolvedPath& path, const std::string& reason) {
  return {{"error", "Refusing to overwrite " + path.given + ": " + reason +
                        " The file was NOT modified. Reload it with read_file (from offset 1, "
                        "whole file) and retry, or use patch for a targeted edit."},
          {"stale_write_blocked", true},
          {"path", path.given},
          {"resolved_path", path.real}};
}

Json write_locked(const WriteFileArgs& args, const ResolvedPath& path, CallContext& ctx,
                  const FileAccess& access) {
  const FileSystem& fs = access.fs();
  auto& tracker = ctx.session.state<ReadTracker>();
  if (auto reason = stale_overwrite_reason(tracker, path.real, fs)) return stale_error(path, *reason);
  auto prepared = prepare_write(path.real, args.content, ctx.services.config.home(), WriteShims{},
                                std::nullopt, fs);
  if (!prepared) return error_json(prepared.error().message);
  auto committed = commit_write(*prepared);
  if (!committed) return error_json(committed.error().message);
  FileVersion version;
  if (stat_version(fs, path.real, version)) tracker.record_write(path.real, version);
  Json out = {{"bytes_written", committed->bytes_written},
              {"dirs_created", path.given.find('/') != std::string::npos}};
  if (committed->verified) out["verified"] = true;
  out["lint"] = lint_json(
      lint_delta(path.real, prepared->bytes, prepared->old_content, access.files_on_host()));
  out["resolved_path"] = path.real;  // through a symlink: its final target
  out["files_modified"] = Json::array({path.absolute});
  if (auto hint = rewrite_hint(prepared->old_content, prepared->bytes)) out["hint"] = *hint;
  return out;
}

Json write_file(const Json& raw, CallContext& ctx) {
  auto args = parse_args(raw);
  if (!args) return error_json(args.error().message);
  auto access = FileAccess::for_call(ctx);
  if (!access) return error_json(access.error().message);
  auto path = access->resolve(args->path);
  if (!path) return error_json(path.error().message);
  if (auto refusal = path_guard_error({*path}, args->cross_profile, ctx, access->fs())) {
    return error_json(*refusal);
  }
  if (auto refusal = display_text_error(args->content)) return error_json(*refusal);
  PathLocks lock({path->real});
  Json out = write_locked(*args, *path, ctx, *access);
  if (auto warning = outside_workspace_warning(*path, access->workspace()); warning && !out.contains("error")) {
    out["_warning"] = *warning;
  }
  return out;
}

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

void register_write_file(Registry& registry) {
  ToolSpec spec;
  spec.name = "write_file";
  spec.toolset = "file";
  spec.description = kDescription;
  spec.input_schema = input_schema();
  spec.annotations = {.read_only = false, .destructive = true, .idempotent = true};
  spec.handler = write_file;
  registry.add(std::move(spec));
}

}  // namespace hermes
