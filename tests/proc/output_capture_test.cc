// SPDX-License-Identifier: MIT
#include "proc/output_capture.h"

#include <gtest/gtest.h>

namespace hermes::proc {
namespace {

TEST(OutputCapture, SmallStreamIsComplete) {
  OutputCapture c(10, 4);
  c.append("abc");
  c.append("de");
  EXPECT_TRUE(c.complete());
  EXPECT_EQ(c.prefix(), "abcde");
  EXPECT_EQ(c.tail(), "bcde");
  EXPECT_EQ(c.total_bytes(), 5u);
}

TEST(OutputCapture, LongStreamKeepsHeadAndTail) {
  OutputCapture c(4, 3);
  for (int i = 0; i < 1000; ++i) c.append("0123456789");
  EXPECT_FALSE(c.complete());
  EXPECT_EQ(c.prefix(), "0123");
  EXPECT_EQ(c.tail(), "789");
  EXPECT_EQ(c.total_bytes(), 10000u);
}

TEST(OutputCapture, CountsCodePoints) {
  OutputCapture c(100, 100);
  c.append("h\xc3\xa9llo \xe2\x82\xac");
  EXPECT_EQ(c.total_chars(), 7u);
  EXPECT_EQ(c.total_bytes(), 10u);
}

TEST(OutputCapture, DropSuffix) {
  OutputCapture c(100, 100);
  c.append("body\nMARK/tmpMARK\n");
  c.drop_suffix(14);
  EXPECT_EQ(c.prefix(), "body");
  EXPECT_EQ(c.tail(), "body");
  EXPECT_EQ(c.total_chars(), 4u);
}

}  // namespace
}  // namespace hermes::proc
