// SPDX-License-Identifier: MIT
#include "core/strings.h"

#include "core/word_scan.h"

#include <string.h>
#include <sys/random.h>

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <stdexcept>

namespace hermes {

std::vector<std::string> split(std::string_view text, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(sep, start);
    if (end == std::string_view::npos) end = text.size();
    std::string piece = trim(text.substr(start, end - start));
    if (!piece.empty()) out.push_back(std::move(piece));
    start = end + 1;
  }
  return out;
}

std::string trim(std::string_view text) {
  size_t begin = 0, end = text.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin]))) ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
  return std::string(text.substr(begin, end - begin));
}

std::string to_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

namespace {

// Needles up to this length are found by their rarest byte; each place that
// byte occurs costs at most one such comparison, so the search stays linear.
constexpr size_t kShortNeedle = 16;

// How common a byte is in text, lowest first: punctuation, capitals, digits,
// small letters, blanks. A guess, not a measure; it only sets the speed.
int commonness(unsigned char c) {
  if (c == ' ' || c == '\n' || c == '\t') return 4;
  if (c >= 'a' && c <= 'z') return 3;
  if (c >= '0' && c <= '9') return 2;
  if (c >= 'A' && c <= 'Z') return 1;
  return 0;
}

size_t rarest_byte(std::string_view needle) {
  size_t best = 0;
  for (size_t k = 1; k < needle.size(); ++k) {
    if (commonness(static_cast<unsigned char>(needle[k])) <
        commonness(static_cast<unsigned char>(needle[best])))
      best = k;
  }
  return best;
}

// memchr for the rarest byte, then one comparison where it sits.
size_t find_short(std::string_view hay, std::string_view needle, size_t from) {
  const size_t r = rarest_byte(needle);
  const char* const end = hay.data() + hay.size() - (needle.size() - 1 - r);
  for (const char* p = hay.data() + from + r; p < end;) {
    p = static_cast<const char*>(std::memchr(p, needle[r], static_cast<size_t>(end - p)));
    if (!p) break;
    if (std::memcmp(p - r, needle.data(), needle.size()) == 0)
      return static_cast<size_t>(p - r - hay.data());
    ++p;
  }
  return std::string_view::npos;
}

}  // namespace

size_t find_bytes(std::string_view hay, std::string_view needle, size_t from) {
  if (from > hay.size()) return std::string_view::npos;
  if (needle.empty()) return from;
  if (needle.size() > hay.size() - from) return std::string_view::npos;
  if (needle.size() >= 2 && needle.size() <= kShortNeedle) return find_short(hay, needle, from);
  // glibc's memmem (two-way) is linear for any needle.
  const void* at = ::memmem(hay.data() + from, hay.size() - from, needle.data(), needle.size());
  return at ? static_cast<size_t>(static_cast<const char*>(at) - hay.data())
            : std::string_view::npos;
}

std::optional<int64_t> parse_int(std::string_view text) {
  std::string t = trim(text);
  if (!t.empty() && t[0] == '+') t.erase(0, 1);
  int64_t value = 0;
  auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
  if (t.empty() || ec != std::errc() || ptr != t.data() + t.size()) return std::nullopt;
  return value;
}

std::string with_commas(uint64_t value) {
  std::string digits = std::to_string(value);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

namespace {
// Length of the valid UTF-8 sequence at `s[i]`, or 0 when invalid.
size_t utf8_seq_len(std::string_view s, size_t i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (len == 0 || i + len > s.size()) return 0;
  for (size_t k = 1; k < len; ++k) {
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 0;
  }
  if (len == 2 && c < 0xC2) return 0;  // overlong
  if (len == 3) {
    unsigned char c1 = static_cast<unsigned char>(s[i + 1]);
    if (c == 0xE0 && c1 < 0xA0) return 0;   // overlong
    if (c == 0xED && c1 >= 0xA0) return 0;  // surrogate
  }
  if (len == 4) {
    unsigned char c1 = static_cast<unsigned char>(s[i + 1]);
    if ((c == 0xF0 && c1 < 0x90) || c > 0xF4 || (c == 0xF4 && c1 >= 0x90)) return 0;
  }
  return len;
}
}  // namespace

std::string sanitize_utf8(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (size_t i = 0; i < bytes.size();) {
    size_t len = utf8_seq_len(bytes, i);
    if (len == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
      continue;
    }
    out.append(bytes.substr(i, len));
    i += len;
  }
  return out;
}

size_t utf8_length(std::string_view text) {
  size_t count = 0;
  for (size_t i = 0; i < text.size();) {
    if (i + 8 <= text.size() && !word_scan::any_high(word_scan::load(text.data() + i))) {
      i += 8;  // eight ASCII code points
      count += 8;
      continue;
    }
    size_t len = utf8_seq_len(text, i);
    i += len ? len : 1;
    ++count;
  }
  return count;
}

std::string_view utf8_prefix(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  size_t end = max_bytes;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return text.substr(0, end);
}

std::string random_hex(size_t bytes) {
  std::vector<unsigned char> raw(bytes);
  size_t filled = 0;
  while (filled < bytes) {
    ssize_t n = ::getrandom(raw.data() + filled, bytes - filled, 0);
    if (n < 0 && errno == EINTR) continue;
    // getrandom only fails on a kernel without it: a fault, not input.
    if (n < 0) throw std::runtime_error("getrandom failed");
    filled += static_cast<size_t>(n);
  }
  return hex_encode(std::string_view(reinterpret_cast<const char*>(raw.data()), raw.size()));
}

std::string hex_encode(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char b : bytes) {
    out += kHex[b >> 4];
    out += kHex[b & 0xF];
  }
  return out;
}

std::optional<std::string> hex_decode(std::string_view hex) {
  auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  if (hex.size() % 2 != 0) return std::nullopt;
  std::string out;
  out.reserve(hex.size() / 2);
  for (size_t i = 0; i < hex.size(); i += 2) {
    int high = digit(hex[i]), low = digit(hex[i + 1]);
    if (high < 0 || low < 0) return std::nullopt;
    out += static_cast<char>(high << 4 | low);
  }
  return out;
}

std::string shell_quote(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

}  // namespace hermes
