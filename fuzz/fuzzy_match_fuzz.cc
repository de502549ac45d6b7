// SPDX-License-Identifier: MIT
// The fuzzy matcher on arbitrary content, old and new text: the input is
// split on the first two NUL bytes. Never a crash, in either anchoring.
#include "tools/patch/match/replace.h"

#include <cstdint>
#include <string_view>
#include <variant>

namespace {

std::string_view take_until_nul(std::string_view& rest) {
  size_t nul = rest.find('\0');
  std::string_view part = rest.substr(0, nul);
  rest.remove_prefix(nul == std::string_view::npos ? rest.size() : nul + 1);
  return part;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 8192) return 0;  // the matcher is quadratic by design; keep runs fast
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  std::string_view content = take_until_nul(rest);
  std::string_view old_text = take_until_nul(rest);
  std::string_view new_text = rest;
  if (hermes::match::check_replace_input(old_text, new_text)) return 0;
  for (bool anchored : {false, true}) {
    (void)hermes::match::fuzzy_replace(
        {content, old_text, new_text, !anchored, {.line_anchored = anchored}, anchored});
  }
  (void)hermes::match::is_already_applied(content, old_text, new_text);
  return 0;
}
