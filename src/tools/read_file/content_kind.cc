// SPDX-License-Identifier: MIT
// Content classification: UTF-8 validity on the head, the magic-byte kind
// table, UTF-16 detection and transcoding, extension lists.
#include "tools/read_file/content_kind.h"

#include "core/strings.h"

#include <array>
#include <cstdio>

namespace hermes::read_file {
namespace {

// Length of the valid UTF-8 sequence at `i`, 0 when invalid, -1 when it is
// cut by the end of the buffer.
int utf8_seq(std::string_view s, size_t i) {
  auto c = static_cast<unsigned char>(s[i]);
  int len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (len == 0 || (len == 2 && c < 0xC2) || (c > 0xF4)) return 0;
  for (int k = 1; k < len; ++k) {
    if (i + k >= s.size()) return -1;
    auto cc = static_cast<unsigned char>(s[i + k]);
    if ((cc & 0xC0) != 0x80) return 0;
    if (k == 1 && ((c == 0xE0 && cc < 0xA0) || (c == 0xED && cc > 0x9F) ||
                   (c == 0xF0 && cc < 0x90) || (c == 0xF4 && cc > 0x8F)))
      return 0;
  }
  return len;
}

struct Magic {
  size_t at;
  std::string_view bytes;
  std::string_view kind;
};

constexpr std::array<Magic, 25> kMagic = {{
    {0, "\x89PNG\r\n\x1a\n", "PNG image data"},
    {0, "\xFF\xD8\xFF", "JPEG image data"},
    {0, "GIF87a", "GIF image data"},
    {0, "GIF89a", "GIF image data"},
    {0, "%PDF", "PDF document"},
    {0,
     "\x7F"
     "ELF",
     "ELF executable"},
    {0, "SQLite format 3", "SQLite database"},
    {0, "\x1F\x8B", "gzip compressed data"},
    {0, "PK\x03\x04", "ZIP archive (also docx/xlsx/jar/apk)"},
    {0, "PK\x05\x06", "ZIP archive (also docx/xlsx/jar/apk)"},
    {0, "BZh", "bzip2 compressed data"},
    {0,
     "\xFD"
     "7zXZ",
     "XZ compressed data"},
    {0, "7z\xBC\xAF\x27\x1C", "7-zip archive"},
    {0, "Rar!\x1A\x07", "RAR archive"},
    {0, "\x28\xB5\x2F\xFD", "Zstandard compressed data"},
    {0, "BM", "BMP image data"},
    {0, "MZ", "PE32 executable (Windows)"},
    {0, "\xCA\xFE\xBA\xBE", "Java class file / Mach-O universal binary"},
    {0, "\xCF\xFA\xED\xFE", "Mach-O 64-bit executable"},
    {0, std::string_view("\0asm", 4), "WebAssembly binary"},
    {0, "OggS", "Ogg data"},
    {0, "ID3", "MP3 audio"},
    {0, "fLaC", "FLAC audio"},
    {4, "ftyp", "ISO Media (MP4/MOV)"},
    {257, "ustar", "POSIX tar archive"},
}};

constexpr std::array<std::string_view, 93> kBinaryExtensions = {
    ".png",   ".jpg",    ".jpeg",   ".gif",     ".bmp",   ".ico",   ".webp", ".tiff", ".tif",
    ".mp4",   ".mov",    ".avi",    ".mkv",     ".webm",  ".wmv",   ".flv",  ".m4v",  ".mpeg",
    ".mpg",   ".mp3",    ".wav",    ".ogg",     ".flac",  ".aac",   ".m4a",  ".wma",  ".aiff",
    ".opus",  ".zip",    ".tar",    ".gz",      ".bz2",   ".7z",    ".rar",  ".xz",   ".z",
    ".tgz",   ".iso",    ".exe",    ".dll",     ".so",    ".dylib", ".bin",  ".o",    ".a",
    ".obj",   ".lib",    ".app",    ".msi",     ".deb",   ".rpm",   ".doc",  ".docx", ".xls",
    ".xlsx",  ".ppt",    ".pptx",   ".odt",     ".ods",   ".odp",   ".ttf",  ".otf",  ".woff",
    ".woff2", ".eot",    ".pyc",    ".pyo",     ".class", ".jar",   ".war",  ".ear",  ".node",
    ".wasm",  ".rlib",   ".sqlite", ".sqlite3", ".db",    ".mdb",   ".idx",  ".psd",  ".ai",
    ".eps",   ".sketch", ".fig",    ".xd",      ".blend", ".3ds",   ".max",  ".swf",  ".fla",
    ".lockb", ".dat",    ".data"};

constexpr std::array<std::string_view, 7> kImageExtensions = {".png",  ".jpg", ".jpeg", ".gif",
                                                              ".webp", ".bmp", ".ico"};

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

}  // namespace

bool looks_binary(std::string_view head) {
  head = head.substr(0, 1000);
  for (size_t i = 0; i < head.size();) {
    if (head[i] == '\0') return true;
    int len = utf8_seq(head, i);
    if (len == -1) return i + 3 < head.size();  // cut at the very end: still text
    if (len == 0) return true;
    i += static_cast<size_t>(len);
  }
  return false;
}

std::optional<Utf16> detect_utf16(std::string_view head) {
  if (starts_with(head, "\xFF\xFE")) return Utf16::kLittleEndian;
  if (starts_with(head, "\xFE\xFF")) return Utf16::kBigEndian;
  head = head.substr(0, 512);
  int odd = 0, even = 0;
  for (size_t i = 0; i < head.size(); ++i) {
    if (head[i] == '\0') (i % 2 ? odd : even)++;
  }
  if (odd >= 2 && even == 0) return Utf16::kLittleEndian;
  if (even >= 2 && odd == 0) return Utf16::kBigEndian;
  return std::nullopt;
}

std::string transcode_utf16(std::string_view bytes, Utf16 order) {
  auto unit = [&](size_t i) -> uint32_t {
    auto a = static_cast<unsigned char>(bytes[i]), b = static_cast<unsigned char>(bytes[i + 1]);
    return order == Utf16::kLittleEndian ? (a | (b << 8)) : ((a << 8) | b);
  };
  std::string out;
  out.reserve(bytes.size());
  size_t i = (bytes.size() >= 2 && (unit(0) == 0xFEFF)) ? 2 : 0;
  for (; i + 1 < bytes.size(); i += 2) {
    uint32_t u = unit(i);
    if (u >= 0xD800 && u <= 0xDBFF && i + 3 < bytes.size()) {
      uint32_t lo = unit(i + 2);
      if (lo >= 0xDC00 && lo <= 0xDFFF) {
        append_utf8(out, 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00));
        i += 2;
        continue;
      }
    }
    if (u >= 0xD800 && u <= 0xDFFF) u = 0xFFFD;
    if (u == '\n' && !out.empty() && out.back() == '\r') out.pop_back();
    append_utf8(out, u);
  }
  return out;
}

std::string binary_kind(std::string_view head) {
  for (const Magic& m : kMagic) {
    if (head.size() >= m.at + m.bytes.size() && head.substr(m.at, m.bytes.size()) == m.bytes)
      return std::string(m.kind);
  }
  if (starts_with(head, "RIFF") && head.size() >= 12) {
    std::string_view sub = head.substr(8, 4);
    if (sub == "WEBP") return "WebP image data";
    if (sub == "WAVE") return "WAVE audio";
    if (sub == "AVI ") return "AVI video";
  }
  return "unknown binary";
}

std::string format_size(uint64_t bytes) {
  char buf[64];
  if (bytes < 1024) {
    std::snprintf(buf, sizeof buf, "%llu bytes", static_cast<unsigned long long>(bytes));
  } else if (bytes < 1024 * 1024) {
    std::snprintf(buf, sizeof buf, "%.1f KB", static_cast<double>(bytes) / 1024.0);
  } else {
    std::snprintf(buf, sizeof buf, "%.1f MB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  }
  return buf;
}

std::string extension_of(std::string_view path) {
  size_t slash = path.find_last_of('/');
  std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  size_t dot = base.find_last_of('.');
  if (dot == std::string_view::npos || dot == 0) return "";
  return to_lower(base.substr(dot));
}

bool is_binary_extension(std::string_view ext) {
  for (std::string_view e : kBinaryExtensions)
    if (e == ext) return true;
  return false;
}

bool is_image_extension(std::string_view ext) {
  for (std::string_view e : kImageExtensions)
    if (e == ext) return true;
  return false;
}

}  // namespace hermes::read_file
