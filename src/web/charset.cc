// SPDX-License-Identifier: MIT
#include "web/charset.h"

#include "core/strings.h"

#include <iconv.h>

#include <array>
#include <cerrno>

namespace hermes::web {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";

std::string canonical_label(std::string label) {
  label = to_lower(trim(label));
  while (!label.empty() && (label.front() == '"' || label.front() == '\'')) label.erase(0, 1);
  while (!label.empty() && (label.back() == '"' || label.back() == '\'')) label.pop_back();
  static const std::array<std::string_view, 8> kLatin1 = {
      "latin1", "iso-8859-1", "iso8859-1", "iso_8859-1", "ascii", "us-ascii", "l1", "cp1252"};
  for (std::string_view alias : kLatin1)
    if (label == alias) return "windows-1252";
  if (label == "utf8" || label == "unicode-1-1-utf-8") return "utf-8";
  if (label == "sjis" || label == "x-sjis" || label == "ms_kanji") return "shift_jis";
  return label;
}

// The value after `charset=` in `text` (an HTTP header or a meta tag).
std::string charset_param(std::string_view text) {
  std::string lower = to_lower(text);
  size_t at = lower.find("charset");
  if (at == std::string::npos) return "";
  size_t i = lower.find_first_not_of(" \t", at + 7);
  if (i == std::string::npos || lower[i] != '=') return "";
  i = lower.find_first_not_of(" \t\"'", i + 1);
  if (i == std::string::npos) return "";
  size_t end = lower.find_first_of(" \t\"';>/", i);
  return lower.substr(i, end == std::string::npos ? std::string::npos : end - i);
}

std::string meta_charset(std::string_view head) {
  std::string lower = to_lower(head.substr(0, 4096));
  for (size_t at = lower.find("<meta"); at != std::string::npos; at = lower.find("<meta", at + 5)) {
    size_t end = lower.find('>', at);
    std::string label = charset_param(std::string_view(lower).substr(
        at, end == std::string::npos ? std::string::npos : end - at));
    if (!label.empty()) return label;
  }
  return "";
}

std::string bom_charset(std::string_view body) {
  if (starts_with(body, "\xEF\xBB\xBF")) return "utf-8";
  if (starts_with(body, "\xFF\xFE")) return "utf-16le";
  if (starts_with(body, "\xFE\xFF")) return "utf-16be";
  return "";
}

bool valid_utf8(std::string_view bytes) { return sanitize_utf8(bytes) == bytes; }

std::string_view strip_bom(std::string_view bytes, const std::string& charset) {
  if (charset == "utf-8" && starts_with(bytes, "\xEF\xBB\xBF")) return bytes.substr(3);
  if ((charset == "utf-16le" || charset == "utf-16be") && bytes.size() >= 2) {
    bool bom = starts_with(bytes, "\xFF\xFE") || starts_with(bytes, "\xFE\xFF");
    return bom ? bytes.substr(2) : bytes;
  }
  return bytes;
}

// iconv with one U+FFFD per undecodable byte.
std::string convert(std::string_view bytes, iconv_t cd) {
  std::string out;
  out.reserve(bytes.size() + bytes.size() / 2);
  char* in = const_cast<char*>(bytes.data());
  size_t in_left = bytes.size();
  std::array<char, 16384> buf;
  while (in_left > 0) {
    char* o = buf.data();
    size_t o_left = buf.size();
    size_t rc = iconv(cd, &in, &in_left, &o, &o_left);
    out.append(buf.data(), buf.size() - o_left);
    if (rc != static_cast<size_t>(-1) || errno == E2BIG) continue;
    out += kReplacement;  // EILSEQ or a truncated sequence at the end
    ++in;
    --in_left;
  }
  return out;
}

}  // namespace

std::string detect_charset(std::string_view body, std::string_view content_type, bool html) {
  if (std::string bom = bom_charset(body); !bom.empty()) return bom;
  if (std::string header = charset_param(content_type); !header.empty())
    return canonical_label(header);
  if (html) {
    if (std::string meta = meta_charset(body); !meta.empty()) return canonical_label(meta);
  }
  return valid_utf8(body) ? "utf-8" : "windows-1252";
}

std::string to_utf8(std::string_view bytes, const std::string& charset) {
  bytes = strip_bom(bytes, charset);
  if (charset == "utf-8") return sanitize_utf8(bytes);
  iconv_t cd = iconv_open("UTF-8", charset.c_str());
  if (cd == reinterpret_cast<iconv_t>(-1)) cd = iconv_open("UTF-8", "WINDOWS-1252");
  if (cd == reinterpret_cast<iconv_t>(-1)) return sanitize_utf8(bytes);
  std::string out = convert(bytes, cd);
  iconv_close(cd);
  return out;
}

}  // namespace hermes::web
