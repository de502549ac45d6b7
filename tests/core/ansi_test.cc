// SPDX-License-Identifier: MIT
#include "core/ansi.h"

#include <gtest/gtest.h>

namespace hermes {
namespace {

TEST(StripAnsi, RemovesCsiAndOsc) {
  EXPECT_EQ(strip_ansi("\x1b[31mred\x1b[0m"), "red");
  EXPECT_EQ(strip_ansi("\x1b]0;title\x07text"), "text");
  EXPECT_EQ(strip_ansi("\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\"), "link");
  EXPECT_EQ(strip_ansi("a\x1bPdcs\x1b\\b"), "ab");
  EXPECT_EQ(strip_ansi("a\x1b(Bb"), "ab");  // nF
  EXPECT_EQ(strip_ansi("a\x1b"
                       "7b"),
            "ab");  // Fp
}

TEST(StripAnsi, EightBitControlsAreCodePoints) {
  EXPECT_EQ(strip_ansi("a\xc2\x9b"
                       "1mb"),
            "ab");  // U+009B CSI
  EXPECT_EQ(strip_ansi("a\xc2\x9d"
                       "t\xc2\x9c"
                       "b"),
            "ab");  // U+009D OSC … U+009C
  EXPECT_EQ(strip_ansi("a\xc2\x85"
                       "b"),
            "ab");  // NEL
}

TEST(StripAnsi, Utf8Survives) {
  // Each of these has continuation bytes in 0x80–0x9F.
  std::string text = "caf\xc3\xa9 \xe2\x82\xac \xe4\xb8\x80 \xf0\x9f\x98\x80";
  EXPECT_EQ(strip_ansi(text), text);
  EXPECT_EQ(strip_ansi("\x1b[1m" + text + "\x1b[0m"), text);
}

TEST(StripAnsi, KeepsC0AndInvalidBytes) {
  EXPECT_EQ(strip_ansi("a\tb\r\n\x07"), "a\tb\r\n\x07");
  EXPECT_EQ(strip_ansi("\x1b[1m\x80\xff"), "\x80\xff");
}

}  // namespace
}  // namespace hermes
