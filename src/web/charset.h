// SPDX-License-Identifier: MIT
// Text bodies to UTF-8. The charset comes from, in order: a byte-order
// mark, the Content-Type header, a `<meta>` declaration in the first 4 KiB
// (HTML only), valid UTF-8, and finally windows-1252 (what browsers assume).
#pragma once

#include <string>
#include <string_view>

namespace hermes::web {

// The charset label the body declares or implies, lower case, with the
// WHATWG aliases applied (latin1, iso-8859-1, ascii → windows-1252).
std::string detect_charset(std::string_view body, std::string_view content_type, bool html);

// `bytes` in `charset` as UTF-8; invalid sequences become U+FFFD. An unknown
// charset is read as windows-1252.
std::string to_utf8(std::string_view bytes, const std::string& charset);

inline std::string decode_text(std::string_view body, std::string_view content_type, bool html) {
  return to_utf8(body, detect_charset(body, content_type, html));
}

}  // namespace hermes::web
