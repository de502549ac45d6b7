// SPDX-License-Identifier: MIT
// The substitute loop and the head/tail mask shared by every redaction pass.
#include <vector>

#include "core/redact_internal.h"

namespace hermes::redact_detail {

std::string substitute(std::string_view text, const RE2& re, const Replacer& replace) {
  const int n = re.NumberOfCapturingGroups() + 1;
  std::vector<re2::StringPiece> pieces(static_cast<size_t>(n));
  Match m{text, std::vector<std::string_view>(static_cast<size_t>(n)), 0, 0};
  std::string out;
  size_t copied = 0;
  size_t pos = 0;
  while (pos <= text.size() &&
         re.Match(text, pos, text.size(), RE2::UNANCHORED, pieces.data(), n)) {
    for (size_t i = 0; i < pieces.size(); ++i) {
      m.groups[i] = pieces[i].data() ? std::string_view(pieces[i].data(), pieces[i].size())
                                     : std::string_view();
    }
    m.begin = static_cast<size_t>(pieces[0].data() - text.data());
    m.end = m.begin + pieces[0].size();
    if (std::optional<std::string> replacement = replace(m)) {
      out.append(text.substr(copied, m.begin - copied));
      out += *replacement;
      copied = m.end;
    }
    pos = m.end > m.begin ? m.end : m.begin + 1;
  }
  if (copied == 0 && out.empty()) return std::string(text);
  out.append(text.substr(copied));
  return out;
}

namespace {

// Byte offsets of each code point start.
std::vector<size_t> code_points(std::string_view s) {
  std::vector<size_t> starts;
  for (size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) starts.push_back(i);
  }
  return starts;
}

}  // namespace

std::string mask_token(std::string_view token) {
  std::vector<size_t> cps = code_points(token);
  if (cps.size() < 18) return "***";
  return std::string(token.substr(0, cps[6])) + "..." +
         std::string(token.substr(cps[cps.size() - 4]));
}

}  // namespace hermes::redact_detail
