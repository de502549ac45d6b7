// SPDX-License-Identifier: MIT
#include "tools/patch/match/text_lines.h"

#include <algorithm>

namespace hermes::match {

std::vector<LineSpan> split_lines(std::string_view text) {
  std::vector<LineSpan> lines;
  lines.reserve(text.size() / 24 + 1);
  size_t begin = 0;
  while (begin < text.size()) {
    size_t nl = text.find('\n', begin);
    if (nl == std::string_view::npos) {
      lines.push_back({begin, text.size(), text.size()});
      break;
    }
    size_t end = nl > begin && text[nl - 1] == '\r' ? nl - 1 : nl;
    lines.push_back({begin, end, nl + 1});
    begin = nl + 1;
  }
  return lines;
}

std::vector<std::string_view> line_views(std::string_view text) {
  std::vector<std::string_view> out;
  for (const auto& l : split_lines(text)) out.push_back(text.substr(l.begin, l.end - l.begin));
  return out;
}

std::string_view ltrim_view(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && (is_blank_char(s[i]) || s[i] == '\n')) ++i;
  return s.substr(i);
}

std::string_view rtrim_view(std::string_view s) {
  size_t n = s.size();
  while (n > 0 && (is_blank_char(s[n - 1]) || s[n - 1] == '\n')) --n;
  return s.substr(0, n);
}

std::string_view trim_view(std::string_view s) { return rtrim_view(ltrim_view(s)); }

std::string_view indent_of(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  return line.substr(0, i);
}

bool is_blank(std::string_view line) { return trim_view(line).empty(); }

size_t line_index_at(const std::vector<LineSpan>& lines, size_t offset) {
  auto it = std::upper_bound(lines.begin(), lines.end(), offset,
                             [](size_t off, const LineSpan& l) { return off < l.begin; });
  return it == lines.begin() ? 0 : static_cast<size_t>(it - lines.begin()) - 1;
}

std::u32string decode_utf8(std::string_view s) {
  std::u32string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    auto b = static_cast<unsigned char>(s[i]);
    int len = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
    bool ok = len > 0 && i + len <= s.size();
    for (int k = 1; ok && k < len; ++k) ok = (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80;
    if (!ok) {
      out += static_cast<char32_t>(b);
      ++i;
      continue;
    }
    char32_t cp = len == 1 ? b : len == 2 ? (b & 0x1F) : len == 3 ? (b & 0x0F) : (b & 0x07);
    for (int k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    out += cp;
    i += static_cast<size_t>(len);
  }
  return out;
}

}  // namespace hermes::match
