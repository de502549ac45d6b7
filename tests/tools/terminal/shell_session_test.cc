// SPDX-License-Identifier: MIT
#include "tools/terminal/shell_session.h"

#include <gtest/gtest.h>

namespace hermes::terminal {
namespace {

TEST(ShellQuote, SingleQuotesSurvive) {
  EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
  EXPECT_EQ(shell_quote(""), "''");
}

TEST(TakeCwdMarker, RemovesTheTrailerLine) {
  proc::OutputCapture out(100, 100);
  out.append("hello\n\n__M__/tmp/x__M__\n");
  EXPECT_EQ(take_cwd_marker(out, "__M__"), "/tmp/x");
  EXPECT_EQ(out.prefix(), "hello\n");
}

TEST(TakeCwdMarker, KeepsTextAGrandchildPrintedAfterIt) {
  proc::OutputCapture out(100, 100);
  out.append("a\n\n__M__/w__M__\nlate\n");
  EXPECT_EQ(take_cwd_marker(out, "__M__"), "/w");
  EXPECT_EQ(out.prefix(), "a\nlate\n");
}

TEST(TakeCwdMarker, SpoofedSingleMarkerIsIgnored) {
  proc::OutputCapture out(100, 100);
  out.append("__M__ only once\n");
  EXPECT_EQ(take_cwd_marker(out, "__M__"), std::nullopt);
  EXPECT_EQ(out.prefix(), "__M__ only once\n");
}

TEST(TakeCwdMarker, WorksWhenTheHeadOverflowed) {
  proc::OutputCapture out(4, 64);
  out.append(std::string(1000, 'x') + "\n__M__/deep__M__\n");
  EXPECT_EQ(take_cwd_marker(out, "__M__"), "/deep");
  EXPECT_EQ(out.total_bytes(), 1000u);
  EXPECT_EQ(out.tail().back(), 'x');
}

}  // namespace
}  // namespace hermes::terminal
