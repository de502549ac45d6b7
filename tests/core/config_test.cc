// SPDX-License-Identifier: MIT
#include "core/config.h"

#include <gtest/gtest.h>

#include <stdlib.h>

namespace hermes {
namespace {

TEST(Config, DefaultsWhenEmpty) {
  auto config = Config::from_yaml("");
  EXPECT_EQ(config->get_int("tool_output.max_lines", 2000), 2000);
  EXPECT_TRUE(config->get_bool("security.redact_secrets", true));
  EXPECT_EQ(config->get_string("terminal.backend", "local"), "local");
}

TEST(Config, ReadsNestedKeys) {
  auto config = Config::from_yaml(
      "tool_output:\n  max_lines: 500\nsecurity:\n  redact_secrets: false\n"
      "toolsets: [file, terminal]\nterminal:\n  env:\n    A: b\n");
  EXPECT_EQ(config->get_int("tool_output.max_lines", 2000), 500);
  EXPECT_FALSE(config->get_bool("security.redact_secrets", true));
  EXPECT_EQ(config->get_string_list("toolsets"), (std::vector<std::string>{"file", "terminal"}));
  EXPECT_EQ(config->get_string_map("terminal.env").at("A"), "b");
}

TEST(Config, BadValueFallsBackToDefault) {
  auto config = Config::from_yaml("tool_output:\n  max_lines: lots\n");
  EXPECT_EQ(config->get_int("tool_output.max_lines", 2000), 2000);
}

TEST(Config, UnparsableFileUsesDefaults) {
  auto config = Config::from_yaml("a: [unclosed\n");
  EXPECT_EQ(config->get_int("a", 7), 7);
}

TEST(Config, EnvBeatsFileAndOverrideBeatsEnv) {
  auto config = Config::from_yaml("security:\n  redact_secrets: true\n");
  ::setenv("HERMES_TEST_REDACT", "false", 1);
  EXPECT_FALSE(config->get_bool("security.redact_secrets", true, "HERMES_TEST_REDACT"));
  config->set_override("security.redact_secrets", "true");
  EXPECT_TRUE(config->get_bool("security.redact_secrets", false, "HERMES_TEST_REDACT"));
  ::unsetenv("HERMES_TEST_REDACT");
}

// Lookups read a table taken at load; it must answer as the tree does.
TEST(Config, LookupsAnswerAsTheTreeDoes) {
  auto config = Config::from_yaml(
      "a:\n  b: 3\n  c:\n    d: x\n  empty:\n  list: [1, 2]\n'e.f': 5\n7: seven\n");
  EXPECT_EQ(config->get_int("a.b", 0), 3);
  EXPECT_EQ(config->get_string("a.c.d", ""), "x");
  EXPECT_EQ(config->get_int("e.f", 9), 9);  // a dotted key can't be named
  EXPECT_EQ(config->get_string("7", ""), "seven");
  EXPECT_EQ(config->get_string("a.c", "map"), "map");  // not a scalar
  EXPECT_EQ(config->get_string("a.empty", "none"), "none");
  EXPECT_EQ(config->get_string_list("a.list"), (std::vector<std::string>{"1", "2"}));
  EXPECT_TRUE(config->has("a.c"));
  EXPECT_FALSE(config->has("a.empty"));
  EXPECT_FALSE(config->has("a.b.c"));
  config->set_override("a.b", "4");
  EXPECT_EQ(config->get_int("a.b", 0), 4);
}

}  // namespace
}  // namespace hermes
