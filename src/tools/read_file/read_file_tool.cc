// SPDX-License-Identifier: MIT
// read_file: the tool's registration, argument parsing and result JSON.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "core/json.h"
#include "core/paths.h"
#include "core/config.h"
#include "core/strings.h"
#include "registry/dispatcher.h"
#include "registry/registry.h"
#include "registry/session.h"

namespace hermes {
namespace {

constexpr const char* kDescription =
    "Read a text file with line numbers and pagination. Use this instead of "
    "cat/head/tail in terminal. Output format: 'LINE_NUM|CONTENT'. Suggests "
    "similar filenames if not found. Use offset and limit for large files. "
    "Reads exceeding ~100K characters are truncated on a line boundary and "
    "return a next_offset; continue with offset to read the rest. Jupyter "
    "notebooks (.ipynb), Word documents (.docx), and Excel workbooks (.xlsx) "
    "are auto-extracted to readable text. NOTE: Cannot read images or other "
    "binary files — use vision_analyze for images.";

struct ReadFileArgs {
  std::string path;
  int64_t offset = 1;
  int64_t limit = 2000;
};

// Non-numeric values fall back to the default; out-of-range values clamp.
int64_t coerce_int(const Json& value, int64_t fallback) {
  if (value.is_number_integer()) return value.get<int64_t>();
  if (value.is_number_float()) return static_cast<int64_t>(value.get<double>());
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
  out.offset = std::max<int64_t>(out.offset, 1);
  out.limit = std::clamp<int64_t>(out.limit, 1, max_lines);
  return out;
}

Result<std::string> slurp(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Error::FromErrno(errno, "open \"" + path + "\"");
  std::string data;
  char buf[65536];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) > 0) data.append(buf, static_cast<size_t>(n));
  ::close(fd);
  return data;
}

Json read_file(const Json& raw, CallContext& ctx) {
  const Config& config = ctx.services.config;
  auto args = parse_args(raw, config.get_int("tool_output.max_lines", 2000));
  if (!args) return error_json(args.error().message);
  auto resolved = ctx.services.paths.resolve(args->path, ctx.session.cwd());
  if (!resolved) return error_json(resolved.error().message);
  auto data = slurp(resolved->real);
  if (!data) {
    if (data.error().code == ErrorCode::kNotFound) {
      return error_json("File not found: " + resolved->absolute);
    }
    return error_json(data.error().message);
  }
  // cat -n semantics: one terminating newline is dropped before numbering.
  std::string_view text = *data;
  int64_t total = 0;
  for (char c : text) total += c == '\n';
  if (!text.empty() && text.back() != '\n') ++total;
  std::string content;
  int64_t line_no = 0;
  size_t pos = 0;
  int64_t last = args->offset + args->limit - 1;
  while (pos < text.size() && line_no < last) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    ++line_no;
    if (line_no >= args->offset) {
      if (!content.empty()) content += '\n';
      content += std::to_string(line_no) + "|" + std::string(text.substr(pos, end - pos));
    }
    pos = end + 1;
  }
  Json out;
  out["content"] = content;
  out["total_lines"] = total;
  out["file_size"] = data->size();
  out["truncated"] = total > last;
  out["is_binary"] = false;
  out["is_image"] = false;
  if (total > last) {
    out["hint"] = "Use offset=" + std::to_string(last + 1) +
                  " to continue reading (showing " + std::to_string(args->offset) +
                  "-" + std::to_string(last) + " of " + std::to_string(total) + " lines)";
  }
  return out;
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
