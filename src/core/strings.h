// SPDX-License-Identifier: MIT
// Small string helpers shared by every module.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hermes {

// Splits on `sep`, trimming blanks and dropping empty pieces.
std::vector<std::string> split(std::string_view text, char sep);
std::string trim(std::string_view text);
std::string to_lower(std::string_view text);
bool starts_with(std::string_view text, std::string_view prefix);
bool ends_with(std::string_view text, std::string_view suffix);
// Where `needle` first occurs in `hay` at or after `from`, or npos. Linear
// in the hay for any needle: string_view::find restarts at every occurrence
// of the needle's first byte (an `e` in prose, a blank in indented code).
size_t find_bytes(std::string_view hay, std::string_view needle, size_t from = 0);
// A whole decimal integer (optional sign, surrounding blanks allowed).
std::optional<int64_t> parse_int(std::string_view text);
// `1234567` → `1,234,567`.
std::string with_commas(uint64_t value);
// Replaces invalid UTF-8 sequences with U+FFFD.
std::string sanitize_utf8(std::string_view bytes);
// Number of code points in valid UTF-8 (invalid bytes count one each).
size_t utf8_length(std::string_view text);
// The longest prefix of at most `max_bytes` that does not split a code point.
std::string_view utf8_prefix(std::string_view text, size_t max_bytes);
// `bytes` random bytes (getrandom), hex-encoded: tokens, ids and markers.
std::string random_hex(size_t bytes);
// Each byte as two lowercase hex digits.
std::string hex_encode(std::string_view bytes);
// The bytes of `hex` (digits of either case), or nullopt when it is not hex.
std::optional<std::string> hex_decode(std::string_view hex);
// `text` as one single-quoted POSIX shell word.
std::string shell_quote(std::string_view text);

}  // namespace hermes
