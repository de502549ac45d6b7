// SPDX-License-Identifier: MIT
#include "tools/patch/match/unicode_fold.h"

#include <cstdint>
#include <cstring>

namespace hermes::match {
namespace {

// The ASCII stand-in of the code point starting at s[i] (its length in
// `len`), or nullptr when it is not folded.
const char* folded_at(std::string_view s, size_t i, size_t& len) {
  auto b0 = static_cast<unsigned char>(s[i]);
  if (b0 == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0xA0) {
    len = 2;
    return " ";
  }
  if ((b0 != 0xE2 && b0 != 0xE3) || i + 2 >= s.size()) return nullptr;
  unsigned cp = ((b0 & 0x0Fu) << 12) | ((static_cast<unsigned char>(s[i + 1]) & 0x3Fu) << 6) |
                (static_cast<unsigned char>(s[i + 2]) & 0x3Fu);
  len = 3;
  switch (cp) {
    case 0x201C:
    case 0x201D:
      return "\"";
    case 0x2018:
    case 0x2019:
      return "'";
    case 0x2014:
      return "--";
    case 0x2013:
    case 0x2212:
      return "-";
    case 0x2026:
      return "...";
    case 0x202F:
    case 0x205F:
    case 0x3000:
      return " ";
    default:
      break;
  }
  if (cp >= 0x2000 && cp <= 0x200A) return " ";
  return nullptr;
}

}  // namespace

bool has_foldable(std::string_view s) {
  // Eight ASCII bytes at a time: only bytes >= 0xC2 can start a folded character.
  size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t word;
    std::memcpy(&word, s.data() + i, 8);
    if (word & 0x8080808080808080ull) break;
  }
  for (; i < s.size(); ++i) {
    size_t len;
    if (static_cast<unsigned char>(s[i]) >= 0xC2 && folded_at(s, i, len)) return true;
  }
  return false;
}

FoldedText fold_unicode_mapped(std::string_view s) {
  FoldedText out;
  out.text.reserve(s.size());
  out.unit_begin.reserve(s.size());
  out.unit_end.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    size_t len = 1;
    const char* rep = static_cast<unsigned char>(s[i]) >= 0xC2 ? folded_at(s, i, len) : nullptr;
    std::string_view piece = rep ? std::string_view(rep) : s.substr(i, 1);
    if (!rep) len = 1;
    for (char c : piece) {
      out.text += c;
      out.unit_begin.push_back(i);
      out.unit_end.push_back(i + len);
    }
    i += len;
  }
  return out;
}

std::string fold_unicode(std::string_view s) {
  if (!has_foldable(s)) return std::string(s);
  return fold_unicode_mapped(s).text;
}

}  // namespace hermes::match
