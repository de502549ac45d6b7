// SPDX-License-Identifier: MIT
#include "mcp/lenient_json.h"

#include <cctype>
#include <cstdlib>

namespace hermes::mcp {
namespace {

// U+FDD0 is a Unicode noncharacter reserved for internal use: it marks where
// a lone surrogate stood; the three hex digits after it give its low bits.
constexpr std::string_view kMarker = "\xEF\xB7\x90";

int surrogate_at(std::string_view s, size_t i) {
  if (i + 6 > s.size() || s[i] != '\\' || s[i + 1] != 'u') return -1;
  char hex[5] = {s[i + 2], s[i + 3], s[i + 4], s[i + 5], 0};
  for (int k = 0; k < 4; ++k) {
    if (!std::isxdigit(static_cast<unsigned char>(hex[k]))) return -1;
  }
  int cp = static_cast<int>(std::strtol(hex, nullptr, 16));
  return cp >= 0xD800 && cp <= 0xDFFF ? cp : -1;
}

// Rewrites lone surrogate escapes to `\ufdd0XXX`; paired ones stay.
std::string mark_lone_surrogates(std::string_view s, bool& changed) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] != 'u') {
      out += s[i];
      out += s[++i];
      continue;
    }
    int cp = surrogate_at(s, i);
    if (cp < 0) {
      out += s[i];
      continue;
    }
    int next = surrogate_at(s, i + 6);
    if (cp < 0xDC00 && next >= 0xDC00) {  // a valid pair: keep both
      out.append(s.substr(i, 12));
      i += 11;
      continue;
    }
    changed = true;
    out += "\\ufdd0";
    out.append(s.substr(i + 3, 3));
    i += 5;
  }
  return out;
}

void unmark(std::string& s) {
  size_t pos = 0;
  while ((pos = s.find(kMarker, pos)) != std::string::npos) {
    if (pos + 6 > s.size()) break;
    std::string hex = "d" + s.substr(pos + 3, 3);
    int cp = static_cast<int>(std::strtol(hex.c_str(), nullptr, 16));
    std::string bytes = {static_cast<char>(0xE0 | (cp >> 12)),
                         static_cast<char>(0x80 | ((cp >> 6) & 0x3F)),
                         static_cast<char>(0x80 | (cp & 0x3F))};
    s.replace(pos, 6, bytes);
    pos += 3;
  }
}

// Recurses: the value is depth-bounded by parse_json.
void unmark_all(Json& value) {
  if (value.is_string()) {
    unmark(value.get_ref<std::string&>());
  } else if (value.is_structured()) {
    for (auto& item : value) unmark_all(item);
  }
}

}  // namespace

Result<Json> parse_lenient(std::string_view text, const JsonLimits& limits) {
  auto strict = parse_json(text, limits);
  if (strict || strict.error().code == ErrorCode::kTooLarge) return strict;
  bool changed = false;
  std::string marked = mark_lone_surrogates(text, changed);
  if (!changed) return strict;
  // Marking lengthens the text; the size was checked on what was sent.
  auto value = parse_json(marked, {marked.size(), limits.max_depth});
  if (value) unmark_all(*value);
  return value;
}

}  // namespace hermes::mcp
