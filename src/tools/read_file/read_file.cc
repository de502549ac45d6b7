// SPDX-License-Identifier: MIT
// read_file's handler: the guard order of docs/tools/read_file.md from the
// NT-namespace check to the real read.
#include "tools/read_file/read_file.h"

#include "core/config.h"
#include "core/paths.h"
#include "core/redact.h"
#include "fs/file_system.h"
#include "registry/session.h"
#include "tools/file_common/file_access.h"
#include "tools/file_common/file_safety.h"
#include "tools/file_common/read_tracker.h"
#include "tools/read_file/content_kind.h"
#include "tools/read_file/document_copy.h"
#include "tools/read_file/documents.h"
#include "tools/read_file/read_guards.h"
#include "tools/read_file/read_state.h"
#include "tools/read_file/text_read.h"

#include <algorithm>
#include <string>

namespace hermes::read_file {
namespace {

int64_t positive_or(int64_t value, int64_t fallback) { return value > 0 ? value : fallback; }

// The page request from the arguments and the configuration (read per
// call: a session's configuration is fixed, but tests build many).
ReadSettings settings_from(const registry::Services& services, const ReadFileParams& params) {
  const Config& config = services.config;
  ReadSettings s;
  s.page.offset = params.offset;
  const int64_t max_lines = std::max<int64_t>(config.get_int("tool_output.max_lines", 2000), 1);
  s.page.limit = std::clamp<int64_t>(params.limit, 1, max_lines);
  s.page.max_line_length = positive_or(config.get_int("tool_output.max_line_length", 2000), 2000);
  s.page.max_chars = positive_or(config.get_int("file_read_max_chars", 100000), 100000);
  s.redact = redaction_enabled(config);
  s.now = services.clock.now();
  return s;
}

ReadFileSpecial special_file(const std::string& given, const std::string& kind) {
  return ReadFileSpecial{Error::InvalidArgument(
      "'" + given + "' is " + kind +
      ", not a regular file — reading it could block indefinitely. Use terminal if you really "
      "need to inspect it.")};
}

Result<ReadFileOutput> extract(const ResolvedPath& path, const fs::FileInfo& info,
                               DocumentKind kind, const ReadSettings& s, registry::CallContext& ctx,
                               const file_common::FileAccess& access) {
  file_common::ReadTracker& tracker = ctx.session.state<file_common::ReadTracker>();
  auto text = access.files_on_host()
                  ? extract_document(path.real, kind, ctx.stop)
                  : extract_document_copy(access.fs(), path.real, info.size, kind, ctx.stop);
  if (!text) {
    const std::string ext = extension_of(path.real);
    return Error::InvalidArgument("Cannot read '" + path.given + "' (" + ext +
                                  "): document extraction failed — " + text.error().message +
                                  ". The file may be damaged or not a real " + ext + " file.");
  }
  return ReadFileOutput{serve_document(*text, info, path, s, tracker)};
}

// Steps 6–7: documents, then binary extensions (even for a missing file).
std::optional<Result<ReadFileOutput>> document_or_extension(const ResolvedPath& path,
                                                            const std::optional<fs::FileInfo>& info,
                                                            const ReadSettings& s,
                                                            registry::CallContext& ctx,
                                                            const file_common::FileAccess& access) {
  const std::string ext = extension_of(path.real);
  std::optional<DocumentKind> kind = document_kind(ext);
  if (kind && info && info->type == fs::FileType::kRegular) {
    if (*kind != DocumentKind::kNotebook) return extract(path, *info, *kind, s, ctx, access);
    if (auto text = read_notebook(access.fs(), path.real)) {
      return Result<ReadFileOutput>(
          serve_document(*text, *info, path, s, ctx.session.state<file_common::ReadTracker>()));
    }
  }
  if (is_binary_extension(ext)) {
    return Error::InvalidArgument(
        "Cannot read binary file '" + path.given + "' (" + ext +
        "). Use vision_analyze for images, or terminal to inspect binary files.");
  }
  return std::nullopt;
}

// Steps 2–5: the path guards between resolution and content.
std::optional<Result<ReadFileOutput>> path_guards(const fs::FileSystem& fs,
                                                  const ResolvedPath& path,
                                                  const std::optional<fs::FileInfo>& info,
                                                  const Config& config) {
  if (hits_device_blocklist(fs, path.absolute, path.real)) {
    return Error::PermissionDenied(
        "Cannot read '" + path.given +
        "': this is a device file that would block or produce infinite output.");
  }
  if (info) {
    if (auto kind = special_file_kind(info->type)) {
      return Result<ReadFileOutput>(special_file(path.given, *kind));
    }
  }
  if (Status readable = file_common::check_readable(path.real, config.home()); !readable) {
    return Result<ReadFileOutput>(readable.error());
  }
  return std::nullopt;
}

}  // namespace

Result<ReadFileOutput> read_file(const ReadFileParams& params, registry::CallContext& ctx) {
  if (is_nt_namespace(params.path)) {
    return Error::InvalidArgument(
        "Cannot read '" + params.path +
        "': NT device-namespace paths (\\\\?\\, \\??\\, \\\\.\\) are not supported.");
  }
  HERMES_ASSIGN_OR_RETURN(file_common::FileAccess access, file_common::FileAccess::for_call(ctx));
  HERMES_ASSIGN_OR_RETURN(ResolvedPath resolved, access.resolve(params.path));
  resolved.given = params.path;
  const fs::FileSystem& fs = access.fs();
  auto stat = fs.stat(resolved.real);
  std::optional<fs::FileInfo> info = stat ? std::optional<fs::FileInfo>(*stat) : std::nullopt;
  const Config& config = ctx.services.config;
  if (auto refused = path_guards(fs, resolved, info, config)) return std::move(*refused);
  const ReadSettings settings = settings_from(ctx.services, params);
  if (auto early = document_or_extension(resolved, info, settings, ctx, access)) {
    return std::move(*early);
  }
  // The tracker first: the dedup state unsubscribes from it as it goes.
  file_common::ReadTracker& tracker = ctx.session.state<file_common::ReadTracker>();
  ReadState& state = ctx.session.state<ReadState>();
  state.attach(tracker);
  return read_text_file(fs, resolved, info, settings, state, tracker);
}

const Error* read_file_failure(const ReadFileOutput& output) {
  return std::visit(
      [](const auto& outcome) -> const Error* {
        using T = std::decay_t<decltype(outcome)>;
        if constexpr (std::is_same_v<T, ReadFilePage> || std::is_same_v<T, ReadFileUnchanged>) {
          return nullptr;
        } else {
          return &outcome.error;
        }
      },
      output);
}

}  // namespace hermes::read_file
