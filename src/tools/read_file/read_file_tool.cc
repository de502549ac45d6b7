// SPDX-License-Identifier: MIT
// read_file: registration, argument parsing, and the guard order of
// file-tools.md §1.2 from the NT-namespace check to the real read.
#include <string>

#include "core/config.h"
#include "core/json.h"
#include "core/paths.h"
#include "core/redact.h"
#include "core/strings.h"
#include "fs/file_system.h"
#include "registry/dispatcher.h"
#include "registry/registry.h"
#include "registry/session.h"
#include "tools/file_common/file_access.h"
#include "tools/file_common/file_safety.h"
#include "tools/file_common/read_tracker.h"
#include "tools/read_file/content_kind.h"
#include "tools/read_file/document_copy.h"
#include "tools/read_file/documents.h"
#include "tools/read_file/read_guards.h"
#include "tools/read_file/read_result.h"
#include "tools/read_file/read_state.h"
#include "tools/read_file/text_read.h"

namespace hermes {
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

struct ReadFileArgs {
  std::string path;
  int64_t offset = 1;
  int64_t limit = 2000;
};

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

Result<ReadFileArgs> parse_args(const Json& args, int64_t max_lines) {
  auto path = args.find("path");
  if (path == args.end() || !path->is_string() || path->get<std::string>().empty()) {
    return Error::InvalidArgument("path is required");
  }
  ReadFileArgs out;
  out.path = path->get<std::string>();
  if (auto it = args.find("offset"); it != args.end()) out.offset = coerce_int(*it, 1);
  if (auto it = args.find("limit"); it != args.end()) out.limit = coerce_int(*it, 2000);
  out.offset = std::clamp<int64_t>(out.offset, 1, kMaxLine);
  out.limit = std::clamp<int64_t>(out.limit, 1, std::max<int64_t>(max_lines, 1));
  return out;
}

int64_t positive_or(int64_t value, int64_t fallback) { return value > 0 ? value : fallback; }

ReadSettings settings_from(const Config& config, const ReadFileArgs& args) {
  ReadSettings s;
  s.page.offset = args.offset;
  s.page.limit = args.limit;
  s.page.max_line_length = positive_or(config.get_int("tool_output.max_line_length", 2000), 2000);
  s.page.max_chars = positive_or(config.get_int("file_read_max_chars", 100000), 100000);
  static const bool redact = redaction_enabled(config);  // read once, at first use
  s.redact = redact;
  return s;
}

Json note_json(const std::string& given, const std::string& kind) {
  Json out;
  out["success"] = false;
  out["note"] = "'" + given + "' is " + kind +
                ", not a regular file — reading it could block indefinitely. Use terminal if you "
                "really need to inspect it.";
  return out;
}

// Steps 6–7: documents, then binary extensions (even for a missing file).
std::optional<Json> document_or_extension(const ResolvedPath& path,
                                          const std::optional<FileInfo>& info,
                                          const ReadSettings& s, CallContext& ctx,
                                          const FileAccess& access) {
  ReadTracker& tracker = ctx.session.state<ReadTracker>();
  const std::string ext = extension_of(path.real);
  std::optional<DocumentKind> kind = document_kind(ext);
  if (kind && info && info->type == FileType::kRegular) {
    if (*kind == DocumentKind::kNotebook) {
      if (auto text = read_notebook(access.fs(), path.real))
        return serve_document(*text, *info, path, s, tracker);
    } else {
      auto text = access.files_on_host()
                      ? extract_document(path.real, *kind, ctx.stop)
                      : extract_document_copy(access.fs(), path.real, info->size, *kind, ctx.stop);
      if (!text) {
        return error_json("Cannot read '" + path.given + "' (" + ext +
                          "): document extraction failed — " + text.error().message +
                          ". The file may be damaged or not a real " + ext + " file.");
      }
      return serve_document(*text, *info, path, s, tracker);
    }
  }
  if (is_binary_extension(ext)) {
    return error_json("Cannot read binary file '" + path.given + "' (" + ext +
                      "). Use vision_analyze for images, or terminal to inspect binary files.");
  }
  return std::nullopt;
}

Json read_file(const Json& raw, CallContext& ctx) {
  const Config& config = ctx.services.config;
  auto args = parse_args(raw, config.get_int("tool_output.max_lines", 2000));
  if (!args) return error_json(args.error().message);
  if (is_nt_namespace(args->path)) {
    return error_json("Cannot read '" + args->path +
                      "': NT device-namespace paths (\\\\?\\, \\??\\, \\\\.\\) are not supported.");
  }
  auto access = FileAccess::for_call(ctx);
  if (!access) return error_json(access.error().message);
  auto resolved = access->resolve(args->path);
  if (!resolved) return error_json(resolved.error().message);
  resolved->given = args->path;
  const FileSystem& fs = access->fs();
  if (hits_device_blocklist(fs, resolved->absolute, resolved->real)) {
    return error_json("Cannot read '" + args->path +
                      "': this is a device file that would block or produce infinite output.");
  }
  auto stat = fs.stat(resolved->real);
  std::optional<FileInfo> info = stat ? std::optional<FileInfo>(*stat) : std::nullopt;
  if (info) {
    if (auto kind = special_file_kind(info->type)) return note_json(args->path, *kind);
  }
  if (auto denied = read_block_error(resolved->real, config.home())) {
    return error_json(*denied);
  }
  const ReadSettings settings = settings_from(config, *args);
  if (auto early = document_or_extension(*resolved, info, settings, ctx, *access)) return *early;
  ReadState& state = ctx.session.state<ReadState>();
  ReadTracker& tracker = ctx.session.state<ReadTracker>();
  state.attach(tracker);
  return read_text_file(fs, *resolved, info, settings, state, tracker);
}

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

void register_read_file(Registry& registry) {
  registry.add(ToolSpec{
      .name = "read_file",
      .toolset = "file",
      .description = kDescription,
      .input_schema = schema(),
      .annotations = {.read_only = true, .destructive = false, .idempotent = true},
      .handler = read_file,
  });
}

}  // namespace hermes
