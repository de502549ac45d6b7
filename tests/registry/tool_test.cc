// SPDX-License-Identifier: MIT
#include "registry/tool.h"

#include "core/config.h"
#include "core/paths.h"

#include <gtest/gtest.h>

#include <memory>

namespace hermes::registry {
namespace {

bool brief_with(const std::string& yaml, bool brief_tool) {
  std::unique_ptr<Config> config = Config::from_yaml(yaml);
  PathResolver paths;
  Services services{*config, paths};
  ToolSpec spec{.name = "t", .brief = brief_tool};
  return runs_briefly(spec, services);
}

TEST(RunsBriefly, ABriefToolOnTheLocalBackend) {
  EXPECT_TRUE(brief_with("", true));
  EXPECT_TRUE(brief_with("terminal:\n  backend: local\n", true));
}

TEST(RunsBriefly, NotWhenItsFilesAreARoundTripAway) {
  EXPECT_FALSE(brief_with("terminal:\n  backend: ssh\n", true));
  EXPECT_FALSE(brief_with("terminal:\n  backend: docker\n", true));
}

TEST(RunsBriefly, NotForAToolThatMayBlock) { EXPECT_FALSE(brief_with("", false)); }

}  // namespace
}  // namespace hermes::registry
