// SPDX-License-Identifier: MIT
// strip_ansi: a small state machine over UTF-8 code points (never raw bytes:
// 0x80–0x9F are continuation bytes of ordinary characters).
#include "core/ansi.h"

#include <cstdint>

namespace hermes {
namespace {

constexpr char32_t kEsc = 0x1B;
constexpr char32_t kBel = 0x07;
constexpr char32_t kCsi8 = 0x9B;
constexpr char32_t kOsc8 = 0x9D;
constexpr char32_t kSt8 = 0x9C;

// Decodes the code point at `text[i]`; sets `len`. Invalid bytes decode as
// themselves with length 1 and a value above U+10FFFF so no rule matches.
char32_t decode(std::string_view text, size_t i, size_t& len) {
  auto b = static_cast<unsigned char>(text[i]);
  len = 1;
  if (b < 0x80) return b;
  int extra = b >= 0xF0 && b < 0xF8 ? 3 : b >= 0xE0 ? 2 : b >= 0xC2 && b < 0xE0 ? 1 : -1;
  if (extra < 0 || i + static_cast<size_t>(extra) >= text.size()) return 0x110000 + b;
  char32_t cp = b & (0x3F >> extra);
  for (int k = 1; k <= extra; ++k) {
    auto c = static_cast<unsigned char>(text[i + static_cast<size_t>(k)]);
    if ((c & 0xC0) != 0x80) return 0x110000 + b;
    cp = (cp << 6) | (c & 0x3F);
  }
  len = static_cast<size_t>(extra) + 1;
  return cp;
}

bool has_escape(std::string_view text) {
  for (size_t i = 0; i < text.size(); ++i) {
    auto b = static_cast<unsigned char>(text[i]);
    if (b == 0x1B) return true;
    // U+0080–U+009F encode as C2 80 … C2 9F.
    if (b == 0xC2 && i + 1 < text.size()) {
      auto n = static_cast<unsigned char>(text[i + 1]);
      if (n >= 0x80 && n <= 0x9F) return true;
    }
  }
  return false;
}

class Stripper {
 public:
  explicit Stripper(std::string_view text) : text_(text) {}

  std::string run() {
    while (i_ < text_.size()) step();
    return out_;
  }

 private:
  char32_t peek(size_t& len) const { return decode(text_, i_, len); }

  void step() {
    size_t len;
    char32_t c = peek(len);
    size_t start = i_;
    i_ += len;
    if (c == kEsc) return escape();
    if (c == kCsi8) return csi_body();
    if (c == kOsc8) return string_body(/*bel_ends=*/true);
    if (c >= 0x80 && c <= 0x9F) return;
    out_.append(text_.substr(start, len));
  }

  void escape() {
    if (i_ >= text_.size()) return;
    size_t len;
    char32_t c = peek(len);
    if (c == '[') {
      i_ += len;
      return csi_body();
    }
    if (c == ']') {
      i_ += len;
      return string_body(true);
    }
    if (c == 'P' || c == 'X' || c == '^' || c == '_') {
      i_ += len;
      return string_body(false);
    }
    if (c >= 0x20 && c <= 0x2F) return nf_body();
    if (c >= 0x30 && c <= 0x7E) i_ += len;  // two-character Fp/Fe/Fs
  }

  // Parameters and intermediates up to one final byte 0x40–0x7E.
  void csi_body() {
    while (i_ < text_.size()) {
      size_t len;
      char32_t c = peek(len);
      if (c >= 0x40 && c <= 0x7E) {
        i_ += len;
        return;
      }
      if (c < 0x20 || c > 0x3F) return;  // malformed: stop, keep the rest
      i_ += len;
    }
  }

  // OSC/DCS/SOS/PM/APC payload up to ST (ESC \ or U+009C), or BEL for OSC.
  void string_body(bool bel_ends) {
    while (i_ < text_.size()) {
      size_t len;
      char32_t c = peek(len);
      i_ += len;
      if ((bel_ends && c == kBel) || c == kSt8) return;
      if (c == kEsc && i_ < text_.size() && text_[i_] == '\\') {
        ++i_;
        return;
      }
    }
  }

  void nf_body() {
    while (i_ < text_.size()) {
      auto c = static_cast<unsigned char>(text_[i_]);
      if (c >= 0x20 && c <= 0x2F) {
        ++i_;
        continue;
      }
      if (c >= 0x30 && c <= 0x7E) ++i_;
      return;
    }
  }

  std::string_view text_;
  size_t i_ = 0;
  std::string out_;
};

}  // namespace

std::string strip_ansi(std::string_view text) {
  if (!has_escape(text)) return std::string(text);
  return Stripper(text).run();
}

}  // namespace hermes
