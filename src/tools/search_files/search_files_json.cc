// SPDX-License-Identifier: MIT
// search_files at the JSON edge: the arguments in, the result JSON out in
// the contract's key order, the schema and the registration.
#include "tools/search_files/search_files_json.h"

#include "core/strings.h"
#include "json/json.h"
#include "registry/output_schema.h"
#include "registry/registry.h"
#include "registry/tool_args.h"
#include "registry/typed_tool.h"
#include "tools/search_files/search_files.h"
#include "tools/search_files/search_host.h"

#include <algorithm>
#include <string>

namespace hermes::search {
namespace {

using search::FileOrder;
using search::OutputMode;
using search::SearchOutcome;
using search::Target;

constexpr const char* kDescription =
    "Search file contents or find files by name. Use this instead of grep/rg/find/ls in "
    "terminal. Ripgrep-backed, faster than shell equivalents.\n\n"
    "Content search (target='content'): Regex search inside files. Output modes: full "
    "matches with line numbers, file paths only, or match counts.\n\n"
    "File search (target='files'): Find files by glob pattern (e.g., '*.py', '*config*'). "
    "Also use this instead of ls — results sorted by modification time.";

constexpr const char* kMatchesFormat =
    "path-grouped: each file path on its own line, followed by indented '<line>: <content>' "
    "rows for matches in that file";

Result<std::string> string_arg(const Json& args, const char* key) {
  HERMES_ASSIGN_OR_RETURN(std::optional<std::string> value,
                          registry::optional_string_arg(args, "search_files", key));
  return value.value_or("");
}

Result<FileOrder> parse_order(const Json& args) {
  HERMES_ASSIGN_OR_RETURN(std::string value, string_arg(args, "order"));
  if (value.empty() || value == "modified") return FileOrder::kModified;
  if (value == "discovery") return FileOrder::kDiscovery;
  return Error::InvalidArgument("Invalid file search order '" + value +
                                "'; expected 'discovery' or 'modified'.");
}

// An empty pattern matches every line of every file (or names every file):
// never what a caller meant, and the most expensive search there is.
constexpr const char* kPatternRequired =
    "search_files: 'pattern' is required: a regex to search file contents (target='content'), "
    "or a glob to find files by name (target='files', e.g. '*.py').";

std::string rstrip(const std::string& text) {
  size_t end = text.find_last_not_of(" \t\r\n\f\v");
  return end == std::string::npos ? std::string() : text.substr(0, end + 1);
}

// Per file its path, then `  <line>: <content>` rows; relies on the engine
// printing a file's results together.
std::string matches_text(const std::vector<search::Match>& matches) {
  std::string text;
  const std::string* current = nullptr;
  for (const auto& match : matches) {
    if (current == nullptr || *current != match.path) {
      if (current != nullptr) text += '\n';
      text += match.path;
      current = &match.path;
    }
    text += "\n  " + std::to_string(match.line) + ": " + rstrip(match.content);
  }
  return text;
}

// Five or more matches: the path-grouped text; fewer: an array of objects.
void render_matches(const std::vector<search::Match>& matches, Json& out) {
  if (matches.size() >= search::kMatchesTextThreshold) {
    out["matches_format"] = kMatchesFormat;
    out["matches_text"] = matches_text(matches);
    return;
  }
  Json list = Json::array();
  for (const auto& m : matches) {
    list.push_back({{"path", m.path}, {"line", m.line}, {"content", m.content}});
  }
  out["matches"] = std::move(list);
}

Json results_json(const SearchFilesResults& results) {
  const SearchOutcome& outcome = results.outcome;
  Json out = Json::object();
  out["total_count"] = outcome.total_count;
  if (!outcome.matches.empty()) render_matches(outcome.matches, out);
  if (!outcome.files.empty()) out["files"] = outcome.files;
  if (!outcome.counts.empty()) {
    Json counts = Json::object();
    for (const auto& [path, n] : outcome.counts) counts[path] = n;
    out["counts"] = std::move(counts);
  }
  if (outcome.truncated) out["truncated"] = true;
  // A truncated page always says so: clients read the pair together.
  if (outcome.truncated || outcome.total_is_lower_bound) out["total_count_is_lower_bound"] = true;
  if (!outcome.limit_reason.empty()) out["limit_reason"] = outcome.limit_reason;
  if (!outcome.warning.empty()) out["warning"] = outcome.warning;
  if (outcome.error) out["error"] = outcome.error->message;
  if (outcome.omitted > 0) {
    out["_omitted"] = std::to_string(outcome.omitted) +
                      " result(s) omitted because they target credential, token, cache, or "
                      "secret-bearing environment files.";
  }
  if (results.third_repeat) {
    out["_warning"] =
        "You have run this exact search 3 times consecutively. The results have "
        "not changed. Use the information you already have.";
  }
  if (outcome.truncated) {
    out["_hint"] = "Results truncated. Use offset=" + std::to_string(results.next_offset) +
                   " to see more, or narrow with a more specific pattern or file_glob.";
  }
  return out;
}

Json shape(registry::Of<SearchFilesResults>) {
  using registry::boolean_type, registry::integer_type, registry::string_type;
  const Json match = registry::object_shape({
      registry::key("path", string_type()),
      registry::key("line", integer_type()),
      registry::key("content", string_type()),
  });
  return registry::object_shape({
      registry::key("total_count", integer_type()),
      registry::optional_key("matches_format", string_type()),
      registry::optional_key("matches_text", string_type()),
      registry::optional_key("matches", registry::array_of(match)),
      registry::optional_key("files", registry::array_of(string_type())),
      registry::optional_key("counts", registry::map_of(integer_type())),
      registry::optional_key("truncated", boolean_type()),
      registry::optional_key("total_count_is_lower_bound", boolean_type()),
      registry::optional_key("limit_reason", string_type()),
      registry::optional_key("warning", string_type()),
      registry::optional_key("error", string_type()),
      registry::optional_key("_omitted", string_type()),
      registry::optional_key("_warning", string_type()),
      registry::optional_key("_hint", string_type()),
  });
}

Json blocked_json(const SearchFilesBlocked& blocked) {
  Json out = registry::error_json(blocked.error.message);
  out["pattern"] = blocked.pattern;
  out["already_searched"] = blocked.repeats;
  return out;
}

Json shape(registry::Of<SearchFilesBlocked>) { return registry::never_structured(); }

Json schema() {
  return Json::parse(R"json({
    "type": "object",
    "properties": {
      "pattern": {"type": "string", "description": "Regex pattern for content search, or glob pattern (e.g., '*.py') for file search"},
      "target": {"type": "string", "enum": ["content", "files"], "description": "'content' searches inside file contents, 'files' searches for files by name", "default": "content"},
      "path": {"type": "string", "description": "Directory or file to search in (default: current working directory)", "default": "."},
      "file_glob": {"type": "string", "description": "Filter files by pattern in grep mode (e.g., '*.py' to only search Python files)"},
      "limit": {"type": "integer", "description": "Maximum number of results to return (default: 50)", "default": 50},
      "offset": {"type": "integer", "description": "Skip first N results for pagination (default: 0)", "default": 0},
      "output_mode": {"type": "string", "enum": ["content", "files_only", "count"], "description": "Output format for grep mode: 'content' shows matching lines with line numbers, 'files_only' lists file paths, 'count' shows match counts per file", "default": "content"},
      "context": {"type": "integer", "description": "Number of context lines before and after each match (grep mode only)", "default": 0},
      "order": {"type": "string", "enum": ["modified", "discovery"], "description": "File search order: 'modified' (newest first, default) or 'discovery' (traversal order, fastest)", "default": "modified"}
    },
    "required": ["pattern"]
  })json");
}

}  // namespace

Result<SearchFilesParams> parse_search_files_params(const Json& args) {
  SearchFilesParams req;
  HERMES_ASSIGN_OR_RETURN(req.pattern, string_arg(args, "pattern"));
  if (req.pattern.empty()) return Error::InvalidArgument(kPatternRequired);
  HERMES_ASSIGN_OR_RETURN(std::string target, string_arg(args, "target"));
  req.target = target == "files" || target == "find" ? Target::kFiles : Target::kContent;
  HERMES_ASSIGN_OR_RETURN(std::string path, string_arg(args, "path"));
  req.path = trim(path).empty() ? "." : path;
  HERMES_ASSIGN_OR_RETURN(std::string glob, string_arg(args, "file_glob"));
  if (!glob.empty()) req.file_glob = glob;
  req.limit = std::clamp<int64_t>(registry::coerce_int_arg(args, "limit").value_or(50), 1,
                                  search::kMaxPaging);
  req.offset = std::clamp<int64_t>(registry::coerce_int_arg(args, "offset").value_or(0), 0,
                                   search::kMaxPaging);
  HERMES_ASSIGN_OR_RETURN(std::string mode, string_arg(args, "output_mode"));
  req.output_mode = mode == "files_only" ? OutputMode::kFilesOnly
                    : mode == "count"    ? OutputMode::kCount
                                         : OutputMode::kContent;
  req.context = std::clamp<int64_t>(registry::coerce_int_arg(args, "context").value_or(0), 0,
                                    search::kMaxPaging);
  HERMES_ASSIGN_OR_RETURN(req.order, parse_order(args));
  return req;
}

Json search_files_json(const SearchFilesOutput& output) {
  if (const auto* blocked = std::get_if<SearchFilesBlocked>(&output)) return blocked_json(*blocked);
  return results_json(std::get<SearchFilesResults>(output));
}

void register_search_files(registry::Registry& registry) {
  registry.add(registry::ToolSpec{
      .name = "search_files",
      .toolset = "file",
      .description = kDescription,
      .input_schema = schema(),
      .output_schema =
          registry::output_schema<SearchFilesOutput>([](auto of) { return shape(of); }),
      .annotations = {.read_only = true, .destructive = false, .idempotent = true},
      .run = registry::typed_entry(registry::TypedTool<SearchFilesParams, SearchFilesOutput>{
          .parse = parse_search_files_params,
          .handler = search_files,
          .render = search_files_json,
          .failure = search_files_failure,
      }),
      .keeps_loop_counters = true,
      .is_available =
          [](const registry::Services&) {
            auto engines = search::native_host().engines();
            return !engines.rg.empty() || !engines.grep.empty() || !engines.find.empty();
          },
  });
}

}  // namespace hermes::search
