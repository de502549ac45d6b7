// SPDX-License-Identifier: MIT
// The read itself: negative cache and dedup, open through the FileSystem,
// unicode-variant retry, binary/UTF-16, a consistent page, redaction, stamps.
#include "tools/read_file/text_read.h"

#include "core/link_walk.h"
#include "core/redact.h"
#include "tools/file_common/read_tracker.h"
#include "tools/read_file/content_kind.h"
#include "tools/read_file/documents.h"
#include "tools/read_file/not_found.h"
#include "tools/read_file/read_state.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace hermes::read_file {
namespace {

constexpr size_t kChunk = 256 * 1024;
constexpr size_t kMinChunk = 4096;

// A read buffer fitted to the file: small files skip a 256 KB allocation;
// size 0 (procfs) still reads in pages.
std::string chunk_buffer(uint64_t size) {
  return std::string(std::clamp<uint64_t>(size + 1, kMinChunk, kChunk), '\0');
}
constexpr uint64_t kUtf16Cap = 10ull << 20;
constexpr int kStableAttempts = 3;

std::string parent_of(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
}

std::string basename_of(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

Result<std::string> read_all(fs::ReadableFile& file, uint64_t cap) {
  std::string data;
  std::string buf(kChunk, '\0');
  for (;;) {
    HERMES_ASSIGN_OR_RETURN(size_t n, file.pread(buf.data(), buf.size(), data.size()));
    if (n == 0 || data.size() >= cap) return data;
    data.append(buf.data(), n);
  }
}

// Content after the char budget is redacted; returns whether it changed.
bool redact_page(Page& page, const ResolvedPath& path, const ReadSettings& s) {
  if (!s.redact) return false;
  RedactOptions options{RedactMode::kFileRead, is_secret_bearing_file(path.real)};
  std::string redacted = redact_secrets(page.content, options);
  if (redacted == page.content) return false;
  page.content = std::move(redacted);
  return true;
}

file_common::FileVersion version_of(const fs::FileInfo& info) {
  return file_common::FileVersion{info.dev, info.ino, info.size, info.mtime_ns, info.ctime_ns};
}

struct Served {
  ReadFileOutput result;
  file_common::ReadSpan span;
};

ReadFilePage page_of(Page page, const fs::FileInfo& info, const ReadSettings& s,
                     const std::string& hint_prefix) {
  ReadFilePage out;
  out.page = std::move(page);
  out.file_size = info.size;
  out.limit = s.page.limit;
  out.max_chars = s.page.max_chars;
  out.hint_prefix = hint_prefix;
  return out;
}

Served serve_page(Page page, const fs::FileInfo& info, const ResolvedPath& path,
                  const ReadSettings& s, const std::string& hint_prefix) {
  bool redacted = redact_page(page, path, s);
  file_common::ReadSpan span{page.first_line, page.first_line + page.lines_shown - 1,
                             page.total_lines, !redacted && !page.lines_altered && !page.line_cut};
  return Served{page_of(std::move(page), info, s, hint_prefix), span};
}

std::string utf16_note(const std::string& hint_prefix, Utf16 order) {
  return (hint_prefix.empty() ? "" : hint_prefix + " ") + "Transcoded from " +
         (order == Utf16::kLittleEndian ? "UTF-16-LE" : "UTF-16-BE") + " to UTF-8 for display.";
}

ReadFileBinary binary(uint64_t size, const std::string& kind) {
  return ReadFileBinary{size,
                        Error::InvalidArgument("Binary file (" + kind + ", " + format_size(size) +
                                               ") — cannot display as text.")};
}

constexpr size_t kHeadBytes = 1024;  // what the binary sniffers look at

// The page streamed from the file chunk by chunk, the first chunk (`got`
// bytes from offset 0) already in `buf`: each call hands over the chunk in
// hand and reads the next into a second buffer (so the view handed over
// stays valid until then). A short read at or past the size the file had
// is its end (the stamp compared after the read catches growth).
Result<Page> stream_page(fs::ReadableFile& file, const fs::FileInfo& info, std::string& buf,
                         size_t got, const PageRequest& request) {
  uint64_t at = 0;
  Status failed;
  std::string next_buf;
  Page page = render_page(
      [&](std::string_view& chunk) {
        if (got == 0) return false;
        at += got;
        if (info.size > 0 && at >= info.size && got < buf.size()) {
          chunk = std::string_view(buf.data(), got);
          got = 0;
          return true;
        }
        next_buf.resize(buf.size());
        auto next = file.pread(next_buf.data(), next_buf.size(), at);
        if (!next) failed = next.error();
        buf.swap(next_buf);
        chunk = std::string_view(next_buf.data(), got);
        got = next ? *next : 0;
        return true;
      },
      request, info.size);
  if (!failed) return failed.error();
  return page;
}

// One consistent page: re-read when the file changed while we read it.
Result<Served> read_page(fs::ReadableFile& file, fs::FileInfo& info, const ResolvedPath& path,
                         const ReadSettings& s, const std::string& hint_prefix) {
  std::string buf = chunk_buffer(info.size);
  for (int attempt = 1;; ++attempt) {
    HERMES_ASSIGN_OR_RETURN(size_t got, file.pread(buf.data(), buf.size(), 0));
    const std::string_view head(buf.data(), std::min(got, kHeadBytes));
    std::string hint = hint_prefix;
    Page page;
    if (looks_binary(head)) {
      auto utf16 = info.size <= kUtf16Cap ? detect_utf16(head) : std::nullopt;
      if (!utf16) return Served{binary(info.size, binary_kind(head)), {}};
      HERMES_ASSIGN_OR_RETURN(std::string bytes, read_all(file, kUtf16Cap));
      page = render_page(transcode_utf16(bytes, *utf16), s.page);
      hint = utf16_note(hint_prefix, *utf16);
    } else {
      HERMES_ASSIGN_OR_RETURN(page, stream_page(file, info, buf, got, s.page));
    }
    HERMES_ASSIGN_OR_RETURN(fs::FileInfo after, file.info());
    if (after == info || attempt == kStableAttempts) {
      info = after;
      return serve_page(std::move(page), info, path, s, hint);
    }
    info = after;
  }
}

// The cause without the operation prefix (`open "x": Permission denied`).
Error open_error(const ResolvedPath& path, const Error& error) {
  size_t colon = error.message.rfind(": ");
  std::string cause = colon == std::string::npos ? error.message : error.message.substr(colon + 2);
  // A link left in the real path is a loop (resolve_links gave up on it).
  if (cause == std::strerror(ELOOP) ||
      (cause.starts_with("refusing to follow") && !resolve_links(path.absolute))) {
    return Error{error.code, "Cannot read '" + path.given +
                                 "': symlink loop (too many levels of symbolic links)."};
  }
  return Error{error.code, "Cannot read '" + path.absolute + "': " + cause};
}

ReadFileNotFound not_found(const fs::FileSystem& fs, const ResolvedPath& path, ReadState& state,
                           Clock::TimePoint now) {
  std::string dir = parent_of(path.real);
  ReadFileNotFound result{Error::NotFound("File not found: " + path.absolute),
                          similar_files(fs, dir, basename_of(path.real))};
  state.cache_not_found(path.real, result, now);
  return result;
}

ReadFileOutput dedup_result(const DedupVerdict& verdict, const ResolvedPath& path) {
  const std::string n = std::to_string(verdict.count);
  if (verdict.kind == DedupVerdict::kStub) return ReadFileUnchanged{path.given};
  if (verdict.kind == DedupVerdict::kStubBlocked) {
    return ReadFileBlocked{
        Error::PermissionDenied(
            "BLOCKED: You have called read_file on this exact region " + n +
            " times and the file has NOT changed. STOP re-reading it: the content from your "
            "earlier read_file result is still current. Use it, or read a different region."),
        path.given, verdict.count};
  }
  return ReadFileBlocked{
      Error::PermissionDenied("BLOCKED: You have read this exact file region " + n +
                              " times in a row. Use the content you already have, or read a "
                              "different region or file."),
      path.given, verdict.count};
}

constexpr const char* kRepeatWarning =
    "You have read this exact file region 3 times consecutively. Use the content you already "
    "have; a 4th identical read will be blocked.";

}  // namespace

std::optional<std::string> read_notebook(const fs::FileSystem& fs, const std::string& real_path) {
  auto file = fs.open_read(real_path);
  if (!file) return std::nullopt;
  auto bytes = read_all(**file, 64ull << 20);
  if (!bytes) return std::nullopt;
  auto text = notebook_text(*bytes);
  return text ? std::optional<std::string>(*text) : std::nullopt;
}

ReadFilePage serve_document(const std::string& text, const fs::FileInfo& info,
                            const ResolvedPath& path, const ReadSettings& settings,
                            file_common::ReadTracker& tracker) {
  tracker.record_read(path.real, version_of(info), file_common::ReadSpan::inexact());
  Served served = serve_page(render_page(text, settings.page), info, path, settings, "");
  auto& page = std::get<ReadFilePage>(served.result);
  page.extracted_document = true;
  return std::move(page);
}

// Opens `path.real`, or the unicode-equivalent sibling it probably meant
// (`target` and `hint` then name it); nullopt when neither exists.
std::optional<Result<std::unique_ptr<fs::ReadableFile>>> open_target(const fs::FileSystem& fs,
                                                                     const ResolvedPath& path,
                                                                     ResolvedPath& target,
                                                                     std::string& hint) {
  auto file = fs.open_read(path.real);
  if (file || file.error().code != ErrorCode::kNotFound) return file;
  std::string dir = parent_of(path.real);
  auto variant = unicode_variant(fs, dir, basename_of(path.real));
  if (!variant) return std::nullopt;
  target.real = dir + "/" + *variant;
  hint = "Note: '" + path.given +
         "' not found byte-for-byte; resolved to the unicode-equivalent file '" + target.real +
         "' (invisible encoding difference: NFC/NFD or special space/quote characters).";
  return fs.open_read(target.real);
}

Result<ReadFileOutput> read_text_file(const fs::FileSystem& fs, const ResolvedPath& path,
                                      const std::optional<fs::FileInfo>& info,
                                      const ReadSettings& s, ReadState& state,
                                      file_common::ReadTracker& tracker) {
  if (!info) {
    auto cached = state.cached_not_found(path.real, s.now);
    if (cached) return ReadFileOutput{std::move(*cached)};
  } else {
    state.forget_not_found(path.real);
  }
  const ReadKey key{path.real, s.page.offset, s.page.limit};
  int consecutive = 0;
  if (info && info->type == fs::FileType::kRegular) {
    DedupVerdict verdict = state.check(key, *info);
    if (verdict.kind != DedupVerdict::kRead) return dedup_result(verdict, path);
    consecutive = verdict.count;
  }
  ResolvedPath target = path;
  std::string hint_prefix;
  auto file = open_target(fs, path, target, hint_prefix);
  if (!file) return ReadFileOutput{not_found(fs, path, state, s.now)};
  if (!*file) return open_error(path, file->error());
  auto opened = (**file)->info();
  if (!opened) return open_error(path, opened.error());
  fs::FileInfo current = *opened;
  if (current.type != fs::FileType::kRegular) {
    return Error::InvalidArgument("Cannot read '" + path.absolute +
                                  "': not a regular file (directory, FIFO, socket, or device). "
                                  "Reading it could block indefinitely.");
  }
  auto served = read_page(***file, current, target, s, hint_prefix);
  if (!served) return open_error(path, served.error());
  auto* page = std::get_if<ReadFilePage>(&served->result);
  if (!page) return std::move(served->result);  // binary: not tracked
  tracker.record_read(target.real, version_of(current), served->span);
  if (target.real == path.real) state.record_served(key, current);
  if (consecutive == 3) page->warning = kRepeatWarning;
  return std::move(served->result);
}

}  // namespace hermes::read_file
