// SPDX-License-Identifier: MIT
#include "web/page_content.h"

#include "core/strings.h"
#include "proc/run.h"
#include "web/charset.h"
#include "web/isolated_markdown.h"

#include <unistd.h>

#include <array>
#include <cstdlib>

namespace hermes::web {
namespace {

struct Signature {
  std::string_view magic;
  std::string_view type;
};

constexpr std::array<Signature, 16> kSignatures = {{
    {"SQLite format 3", "SQLite database"},
    {"PK\x03\x04", "ZIP archive"},
    {"PK\x05\x06", "ZIP archive"},
    {"\x1F\x8B", "gzip compressed data"},
    {"BZh", "bzip2 compressed data"},
    {"\xFD"
     "7zXZ",
     "xz compressed data"},
    {"7z\xBC\xAF\x27\x1C", "7-Zip archive"},
    {"\x7F"
     "ELF",
     "ELF executable"},
    {"\xCF\xFA\xED\xFE", "Mach-O 64-bit executable"},
    {"\xCE\xFA\xED\xFE", "Mach-O executable"},
    {"\x89PNG\r\n\x1A\n", "PNG image data"},
    {"\xFF\xD8\xFF", "JPEG image data"},
    {"GIF8", "GIF image data"},
    {"II*", "TIFF image data"},
    {"fLaC", "FLAC audio"},
    {"OggS", "Ogg data"},
}};

constexpr const char* kNoPdftotext =
    "PDF extraction needs pdftotext (poppler-utils); install it or set web.extract_backend.";

enum class Kind { kHtml, kText, kPdf, kOther };

std::string mime_of(std::string_view content_type) {
  return to_lower(trim(content_type.substr(0, content_type.find(';'))));
}

bool is_textual(const std::string& mime) {
  return starts_with(mime, "text/") || mime == "application/json" || ends_with(mime, "/xml") ||
         ends_with(mime, "+xml") || ends_with(mime, "+json") || mime == "application/javascript";
}

Kind kind_of(std::string_view body, const std::string& mime) {
  if (starts_with(body, "%PDF-")) return Kind::kPdf;
  std::string head = to_lower(body.substr(0, 1024));
  if (head.find("<!doctype html") != std::string::npos || head.find("<html") != std::string::npos)
    return Kind::kHtml;
  if (mime == "text/html" || mime == "application/xhtml+xml") return Kind::kHtml;
  if (mime == "application/pdf") return Kind::kPdf;
  if (is_textual(mime) ||
      (mime.empty() && sanitize_utf8(body.substr(0, 4096)) == body.substr(0, 4096)))
    return Kind::kText;
  return Kind::kOther;
}

// Runs `argv` with the 60 s bound; its stdout, or nullopt when it failed.
std::optional<std::string> run_tool(std::vector<std::string> argv, std::stop_token stop) {
  proc::SpawnOptions options;
  options.argv = std::move(argv);
  options.new_session = false;
  auto child = proc::spawn(options);
  if (!child) return std::nullopt;
  std::string output;
  proc::RunLimits limits;
  limits.timeout = std::chrono::seconds(60);
  auto outcome = proc::run_bounded(*child, limits, stop, [&](std::string_view bytes) {
    if (output.size() < (64u << 20)) output.append(bytes);
  });
  if (outcome.end != proc::RunEnd::kExited || outcome.status.code != 0) return std::nullopt;
  return output;
}

std::string pdf_title(const std::string& path, std::stop_token stop) {
  auto info = run_tool({"pdfinfo", "-enc", "UTF-8", path}, stop);
  if (!info) return "";
  for (const std::string& line : split(*info, '\n'))
    if (starts_with(line, "Title:")) return trim(line.substr(6));
  return "";
}

PageContent pdf_content(std::string_view body, std::stop_token stop) {
  std::string dir =
      std::getenv("TMPDIR") && *std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp";
  std::string path = dir + "/hermes-web-XXXXXX";
  int fd = mkstemp(path.data());
  if (fd < 0) return {"", "", "Could not store the PDF for pdftotext"};
  bool written = ::write(fd, body.data(), body.size()) == static_cast<ssize_t>(body.size());
  ::close(fd);
  PageContent out;
  auto text =
      written ? run_tool({"pdftotext", "-enc", "UTF-8", "-layout", path, "-"}, stop) : std::nullopt;
  if (text) out = {pdf_title(path, stop), sanitize_utf8(*text), ""};
  ::unlink(path.c_str());
  if (!text) out.error = stop.stop_requested() ? "Interrupted" : kNoPdftotext;
  return out;
}

std::string conversion_error(const Error& e, const std::string& url,
                             const ContentDeadline& deadline) {
  switch (e.code) {
    case ErrorCode::kTimeout:
      return deadline.timeout_error + "; the page was too complex to convert to markdown in time";
    case ErrorCode::kCancelled:
      return "Interrupted";
    case ErrorCode::kTooLarge:
      return "Page too large to convert to markdown (" + e.message + ")";
    default:
      return "Could not convert " + url + " to markdown: the converter " + e.message;
  }
}

PageContent html_content(std::string_view body, std::string_view content_type,
                         const std::string& url, const ContentDeadline& deadline,
                         std::stop_token stop) {
  auto doc =
      html_to_markdown_isolated(decode_text(body, content_type, true), url, deadline.at, stop);
  if (!doc) return {"", "", conversion_error(doc.error(), url, deadline)};
  return {std::move(doc->title), std::move(doc->markdown), ""};
}

bool on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  for (const std::string& dir : split(path ? path : "/usr/bin:/bin", ':'))
    if (::access((dir + "/" + name).c_str(), X_OK) == 0) return true;
  return false;
}

}  // namespace

std::optional<std::string> binary_type(std::string_view head) {
  for (const Signature& s : kSignatures)
    if (starts_with(head, s.magic)) return std::string(s.type);
  return std::nullopt;
}

std::string binary_error(const std::string& type) {
  return "URL returned binary content (" + type +
         "), not a page. Download it with the terminal (curl -L -o) and use read_file "
         "(SQLite/Office/PDF auto-extract) or terminal utilities on the file.";
}

PageContent page_content(std::string_view body, std::string_view content_type,
                         const std::string& url, const ContentDeadline& deadline,
                         std::stop_token stop) {
  std::string mime = mime_of(content_type);
  if (auto type = binary_type(body.substr(0, 32))) return {"", "", binary_error(*type)};
  switch (kind_of(body, mime)) {
    case Kind::kHtml:
      return html_content(body, content_type, url, deadline, stop);
    case Kind::kText:
      return {"", decode_text(body, content_type, false), ""};
    case Kind::kPdf:
      if (!on_path("pdftotext")) return {"", "", kNoPdftotext};
      return pdf_content(body, stop);
    case Kind::kOther:
      break;
  }
  return {"", "", binary_error(mime.empty() ? "unknown type" : mime)};
}

}  // namespace hermes::web
