// SPDX-License-Identifier: MIT
#include "tools/terminal/exit_meaning.h"

#include <gtest/gtest.h>

namespace hermes::terminal {
namespace {

TEST(ExitMeaning, LastSegmentBaseCommand) {
  EXPECT_EQ(last_base_command("cd x && LANG=C /usr/bin/grep foo bar"), "grep");
  EXPECT_EQ(last_base_command("cat a | diff - b"), "diff");
}

TEST(ExitMeaning, KnownCodes) {
  EXPECT_EQ(exit_code_meaning("grep x f", 1), "No matches found (not an error)");
  EXPECT_TRUE(exit_code_meaning("diff a b", 1).has_value());
  EXPECT_FALSE(exit_code_meaning("false", 1).has_value());
  EXPECT_FALSE(exit_code_meaning("grep x f", 0).has_value());
  EXPECT_NE(exit_code_meaning("curl http://x", 6)->find("resolve"), std::string::npos);
  EXPECT_EQ(exit_code_meaning("foo", 127), "Command not found");
  EXPECT_TRUE(exit_code_meaning("sleep 100", 124).has_value());
  EXPECT_NE(exit_code_meaning("x", 137)->find("SIGKILL"), std::string::npos);
  EXPECT_NE(exit_code_meaning("x", -9)->find("signal 9"), std::string::npos);
  EXPECT_FALSE(exit_code_meaning("x", 128 + 2).has_value() &&
               exit_code_meaning("x", 130)->find("signal 2") != std::string::npos);
}

}  // namespace
}  // namespace hermes::terminal
