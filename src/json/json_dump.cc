// SPDX-License-Identifier: MIT
// Compact serialisation on the response path. nlohmann's serializer decodes
// every byte of every string through its UTF-8 state machine; a tool result
// is mostly long runs of plain text, so here a run of bytes that need no
// escaping is copied at once and only valid UTF-8 is passed through as is.
// A string that is not valid UTF-8 goes to nlohmann, which replaces the bad
// bytes with U+FFFD exactly as before; numbers other than integers do too, so
// their text is unchanged.
#include "core/word_scan.h"
#include "json/json.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <string_view>

namespace hermes {
namespace {

// Per byte: 0 copied as is, 1 escaped, 2 a UTF-8 lead or continuation byte.
constexpr std::array<uint8_t, 256> kClass = [] {
  std::array<uint8_t, 256> table{};
  for (int c = 0; c < 0x20; ++c) table[c] = 1;
  table['"'] = 1;
  table['\\'] = 1;
  for (int c = 0x80; c < 0x100; ++c) table[c] = 2;
  return table;
}();

// Length of the well-formed UTF-8 sequence at `i` (RFC 3629: no overlongs,
// no surrogates, nothing past U+10FFFF), or 0.
size_t utf8_sequence(std::string_view s, size_t i) {
  auto at = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  auto cont = [&](size_t k, unsigned char lo = 0x80, unsigned char hi = 0xBF) {
    return k < s.size() && at(k) >= lo && at(k) <= hi;
  };
  unsigned char c = at(i);
  if (c >= 0xC2 && c <= 0xDF) return cont(i + 1) ? 2 : 0;
  if (c == 0xE0) return cont(i + 1, 0xA0) && cont(i + 2) ? 3 : 0;
  if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) return cont(i + 1) && cont(i + 2) ? 3 : 0;
  if (c == 0xED) return cont(i + 1, 0x80, 0x9F) && cont(i + 2) ? 3 : 0;
  if (c == 0xF0) return cont(i + 1, 0x90) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  if (c >= 0xF1 && c <= 0xF3) return cont(i + 1) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  if (c == 0xF4) return cont(i + 1, 0x80, 0x8F) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  return 0;
}

void append_escape(unsigned char c, std::string& out) {
  switch (c) {
    case '"':
      out += "\\\"";
      return;
    case '\\':
      out += "\\\\";
      return;
    case '\b':
      out += "\\b";
      return;
    case '\f':
      out += "\\f";
      return;
    case '\n':
      out += "\\n";
      return;
    case '\r':
      out += "\\r";
      return;
    case '\t':
      out += "\\t";
      return;
    default: {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\u00";
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
    }
  }
}

// Whether a word of a string holds a byte that is escaped or starts UTF-8.
constexpr uint64_t needs_a_look(uint64_t word) {
  return word_scan::any_below(word, 0x20) | word_scan::any_equal(word, '"') |
         word_scan::any_equal(word, '\\') | word_scan::any_high(word);
}

// Room for a long string and its escapes at once (a tool's text is often
// JSON inside JSON), growing geometrically as appends would.
void make_room(std::string& out, size_t length) {
  if (length < 256) return;
  const size_t needed = out.size() + length + length / 8 + 2;
  if (needed > out.capacity()) out.reserve(std::max(needed, 2 * out.capacity()));
}

// False (and `out` unchanged) when `s` is not valid UTF-8.
bool append_string(std::string_view s, std::string& out) {
  make_room(out, s.size());
  const size_t mark = out.size();
  out += '"';
  size_t run = 0;
  for (size_t i = 0; i < s.size();) {
    if (i + 8 <= s.size() && !needs_a_look(word_scan::load(s.data() + i))) {
      i += 8;
      continue;
    }
    uint8_t kind = kClass[static_cast<unsigned char>(s[i])];
    if (kind == 0) {
      ++i;
      continue;
    }
    if (kind == 2) {
      size_t n = utf8_sequence(s, i);
      if (n == 0) {
        out.resize(mark);
        return false;
      }
      i += n;
      continue;
    }
    out.append(s.substr(run, i - run));
    append_escape(static_cast<unsigned char>(s[i]), out);
    run = ++i;
  }
  out.append(s.substr(run));
  out += '"';
  return true;
}

template <typename Int>
void append_integer(Int value, std::string& out) {
  char digits[24];
  auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
  out.append(digits, end);
}

void append_with_nlohmann(const Json& value, std::string& out) {
  out += value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

void append_value(const Json& value, std::string& out) {
  switch (value.type()) {
    case Json::value_t::object: {
      out += '{';
      bool first = true;
      for (const auto& [key, item] : value.items()) {
        if (!first) out += ',';
        first = false;
        if (!append_string(key, out)) append_with_nlohmann(Json(key), out);
        out += ':';
        append_value(item, out);
      }
      out += '}';
      return;
    }
    case Json::value_t::array: {
      out += '[';
      for (size_t i = 0; i < value.size(); ++i) {
        if (i) out += ',';
        append_value(value[i], out);
      }
      out += ']';
      return;
    }
    case Json::value_t::string:
      if (!append_string(value.get_ref<const std::string&>(), out))
        append_with_nlohmann(value, out);
      return;
    case Json::value_t::number_integer:
      append_integer(value.get<int64_t>(), out);
      return;
    case Json::value_t::number_unsigned:
      append_integer(value.get<uint64_t>(), out);
      return;
    case Json::value_t::boolean:
      out += value.get<bool>() ? "true" : "false";
      return;
    case Json::value_t::null:
      out += "null";
      return;
    default:
      append_with_nlohmann(value, out);  // floats, binary, discarded
  }
}

}  // namespace

std::string dump_json(const Json& value) {
  std::string out;
  append_value(value, out);
  return out;
}

}  // namespace hermes
