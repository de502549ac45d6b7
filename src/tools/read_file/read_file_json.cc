// SPDX-License-Identifier: MIT
// read_file at the JSON edge: the arguments in, each outcome's JSON shape out
// (hints in the contract's exact words), and the registration.
#include "tools/read_file/read_file_json.h"

#include "core/strings.h"
#include "json/json.h"
#include "registry/output_schema.h"
#include "registry/registry.h"
#include "registry/tool.h"
#include "registry/tool_args.h"
#include "registry/typed_tool.h"
#include "tools/read_file/content_kind.h"
#include "tools/read_file/read_file.h"

#include <algorithm>
#include <string>

namespace hermes::read_file {
namespace {

constexpr const char* kDescription =
    "Read a text file with line numbers and pagination. Use this instead of cat/head/tail in "
    "terminal. Output format: 'LINE_NUM|CONTENT'. Suggests similar filenames if not found. Use "
    "offset and limit for large files. Reads exceeding ~100K characters are truncated on a line "
    "boundary and return a next_offset; continue with offset to read the rest. Jupyter notebooks "
    "(.ipynb), Word documents (.docx), and Excel workbooks (.xlsx) are auto-extracted to readable "
    "text; PDF converts too when pdftotext is installed. PDF conversion reads the text layer only: "
    "scanned/image pages yield no text, and when many pages come back empty the output ends with "
    "an EXTRACTION COVERAGE WARNING listing the affected pages — follow its instructions (render "
    "pages with pdftoppm and inspect via vision_analyze, or OCR) instead of treating the "
    "extraction as complete. NOTE: Cannot read images or other binary files — use vision_analyze "
    "for images.";

// Line numbers beyond this are past any file; keeps offset + limit exact.
constexpr int64_t kMaxLine = int64_t{1} << 50;

// int() semantics: numbers truncate, numeric strings parse, anything else
// takes the default.
int64_t coerce_int(const Json& value, int64_t fallback) {
  if (value.is_number_unsigned()) return std::min<uint64_t>(value.get<uint64_t>(), kMaxLine);
  if (value.is_number_integer()) return value.get<int64_t>();
  if (value.is_number_float()) {
    double d = value.get<double>();
    if (!(d > -kMaxLine && d < kMaxLine)) return d > 0 ? kMaxLine : fallback;  // NaN, inf, huge
    return static_cast<int64_t>(d);
  }
  if (value.is_string()) return parse_int(value.get<std::string>()).value_or(fallback);
  return fallback;
}

constexpr uint64_t kLargeFileBytes = 512000;

std::string join_hint(const std::string& a, const std::string& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  return a + " " + b;
}

std::string budget_hint(const Page& page, int64_t max_chars) {
  int64_t next = page.first_line + page.lines_shown;
  std::string hint = "Output truncated at the " + with_commas(static_cast<uint64_t>(max_chars)) +
                     "-char read budget after " + std::to_string(page.lines_shown) +
                     " line(s) (showing lines " + std::to_string(page.first_line) + "-" +
                     std::to_string(next - 1) + " of " + std::to_string(page.total_lines) +
                     "). Use offset=" + std::to_string(next) + " to continue.";
  if (page.line_cut) {
    hint += " Line " + std::to_string(page.first_line) +
            " alone exceeds the budget and was cut mid-line; the rest of that line is not "
            "retrievable via offset (use search_files or terminal for it).";
  }
  return hint;
}

std::string page_hint(const Page& page, const ReadFilePage& ctx) {
  if (page.total_lines == 0) return "File is empty (0 bytes).";
  if (page.first_line > page.total_lines) {
    std::string n = std::to_string(page.total_lines);
    return "Note: offset " + std::to_string(page.first_line) + " is beyond the end of the file (" +
           n + " lines total). Retry with offset <= " + n + ".";
  }
  if (page.budget_hit) return budget_hint(page, ctx.max_chars);
  if (!page_truncated(page, ctx.limit)) return "";
  int64_t end = last_requested_line(page.first_line, ctx.limit);
  return "Use offset=" + std::to_string(end + 1) + " to continue reading (showing " +
         std::to_string(page.first_line) + "-" + std::to_string(end) + " of " +
         std::to_string(page.total_lines) + " lines)";
}

std::string advisory_hint(const Page& page, const ReadFilePage& ctx, bool truncated) {
  std::string hint;
  if (ctx.file_size > kLargeFileBytes && ctx.limit > 200 && truncated) {
    hint = "This file is large (" + with_commas(ctx.file_size) +
           " bytes). Read only the region you need with a smaller limit, or use search_files to "
           "find it first.";
  }
  if (page.conflict_blocks > 0) {
    hint = join_hint(hint, "This page contains " + std::to_string(page.conflict_blocks) +
                               " unresolved git merge-conflict block(s) (<<<<<<< … >>>>>>>). "
                               "Resolve them before relying on or editing this code.");
  }
  return hint;
}

Json page_json(const ReadFilePage& ctx) {
  const Page& page = ctx.page;
  const bool truncated = page.first_line <= page.total_lines && page_truncated(page, ctx.limit);
  Json out = object_with_room(16);
  out["content"] = page.content;
  out["total_lines"] = page.total_lines;
  out["file_size"] = ctx.file_size;
  out["truncated"] = truncated;
  if (ctx.extracted_document) {
    out["extracted_document"] = true;
  } else {
    out["is_binary"] = false;
    out["is_image"] = false;
  }
  std::string hint = join_hint(ctx.hint_prefix, page_hint(page, ctx));
  if (!hint.empty()) out["hint"] = hint;
  if (page.budget_hit) {
    out["truncated_by"] = "bytes";
    out["next_offset"] = page.first_line + page.lines_shown;
    if (page.line_cut) out["truncated_lines"] = true;
  }
  if (page.conflict_blocks > 0) out["conflict_blocks"] = page.conflict_blocks;
  std::string advisory = advisory_hint(page, ctx, truncated);
  if (!advisory.empty()) out["_hint"] = advisory;
  if (!ctx.warning.empty()) out["_warning"] = ctx.warning;
  return out;
}

Json to_json(const ReadFilePage& page) { return page_json(page); }

Json shape(registry::Of<ReadFilePage>) {
  using registry::boolean_type, registry::integer_type, registry::string_type;
  return registry::object_shape({
      registry::key("content", string_type()),
      registry::key("total_lines", integer_type()),
      registry::key("file_size", integer_type()),
      registry::key("truncated", boolean_type()),
      registry::optional_key("extracted_document", boolean_type()),
      registry::optional_key("is_binary", boolean_type()),
      registry::optional_key("is_image", boolean_type()),
      registry::optional_key("hint", string_type()),
      registry::optional_key("truncated_by", registry::enum_of({"bytes"})),
      registry::optional_key("next_offset", integer_type()),
      registry::optional_key("truncated_lines", boolean_type()),
      registry::optional_key("conflict_blocks", integer_type()),
      registry::optional_key("_hint", string_type()),
      registry::optional_key("_warning", string_type()),
  });
}

Json to_json(const ReadFileBinary& binary) {
  Json out;
  out["content"] = "";
  out["total_lines"] = 0;
  out["file_size"] = binary.size;
  out["truncated"] = false;
  out["is_binary"] = true;
  out["is_image"] = false;
  out["error"] = binary.error.message;
  return out;
}

Json shape(registry::Of<ReadFileBinary>) { return registry::never_structured(); }

Json to_json(const ReadFileNotFound& missing) {
  Json out;
  out["error"] = missing.error.message;
  if (!missing.similar.empty()) out["similar_files"] = missing.similar;
  return out;
}

Json shape(registry::Of<ReadFileNotFound>) { return registry::never_structured(); }

Json to_json(const ReadFileUnchanged& stub) {
  Json out;
  out["status"] = "unchanged";
  out["message"] =
      "File unchanged since last read. The content from the earlier read_file result in this "
      "conversation is still current — refer to that instead of re-reading.";
  out["path"] = stub.given;
  out["dedup"] = true;
  out["content_returned"] = false;
  return out;
}

Json shape(registry::Of<ReadFileUnchanged>) {
  using registry::boolean_type, registry::string_type;
  return registry::object_shape({
      registry::key("status", registry::enum_of({"unchanged"})),
      registry::key("message", string_type()),
      registry::key("path", string_type()),
      registry::key("dedup", boolean_type()),
      registry::key("content_returned", boolean_type()),
  });
}

Json to_json(const ReadFileBlocked& blocked) {
  Json out;
  out["error"] = blocked.error.message;
  out["path"] = blocked.given;
  out["already_read"] = blocked.count;
  return out;
}

Json shape(registry::Of<ReadFileBlocked>) { return registry::never_structured(); }

Json to_json(const ReadFileSpecial& special) {
  Json out;
  out["success"] = false;
  out["note"] = special.error.message;
  return out;
}

Json shape(registry::Of<ReadFileSpecial>) { return registry::never_structured(); }

Json schema() {
  return Json::parse(R"json({
    "type": "object",
    "properties": {
      "path": {"type": "string", "description": "Path to the file to read (absolute, relative, or ~/path)"},
      "offset": {"type": "integer", "description": "Line number to start reading from (1-indexed, default: 1)", "default": 1, "minimum": 1},
      "limit": {"type": "integer", "description": "Maximum number of lines to read (default: 2000, max: 2000)", "default": 2000, "maximum": 2000}
    },
    "required": ["path"]
  })json");
}

}  // namespace

Result<ReadFileParams> parse_read_file_params(const Json& args) {
  HERMES_ASSIGN_OR_RETURN(std::optional<std::string> path,
                          registry::optional_string_arg(args, "read_file", "path"));
  if (!path || path->empty()) return Error::InvalidArgument("path is required");
  ReadFileParams out;
  out.path = std::move(*path);
  if (auto it = args.find("offset"); it != args.end()) out.offset = coerce_int(*it, 1);
  if (auto it = args.find("limit"); it != args.end()) out.limit = coerce_int(*it, 2000);
  out.offset = std::clamp<int64_t>(out.offset, 1, kMaxLine);
  return out;
}

Json read_file_json(const ReadFileOutput& output) {
  return std::visit([](const auto& outcome) { return to_json(outcome); }, output);
}

bool reads_briefly(const Json& args, registry::BriefFindings& found) {
  auto real = registry::absolute_real_path(args, "path", found.path);
  return real && extension_of(*real) != ".pdf";
}

void register_read_file(registry::Registry& registry) {
  registry.add(registry::ToolSpec{
      .name = "read_file",
      .toolset = "file",
      .description = kDescription,
      .input_schema = schema(),
      .output_schema = registry::output_schema<ReadFileOutput>([](auto of) { return shape(of); }),
      .annotations = {.read_only = true, .destructive = false, .idempotent = true},
      .run = registry::typed_entry(registry::TypedTool<ReadFileParams, ReadFileOutput>{
          .parse = parse_read_file_params,
          .handler = read_file,
          .render = read_file_json,
          .failure = read_file_failure,
      }),
      .keeps_loop_counters = true,
      .brief = reads_briefly,
  });
}

}  // namespace hermes::read_file
