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
  ToolSpec spec{.name = "t"};
  if (brief_tool)
    spec.brief = [](const Json& args, BriefFindings&) { return !args.contains("slow"); };
  BriefFindings found;
  return runs_briefly(spec, Json::object(), services, found);
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

TEST(RunsBriefly, NotForArgumentsTheToolSaysMayBlock) {
  std::unique_ptr<Config> config = Config::from_yaml("");
  PathResolver paths;
  Services services{*config, paths};
  ToolSpec spec{.name = "t",
                .brief = [](const Json& args, BriefFindings&) { return !args.contains("slow"); }};
  BriefFindings found;
  EXPECT_TRUE(runs_briefly(spec, Json::object(), services, found));
  EXPECT_FALSE(runs_briefly(spec, Json{{"slow", true}}, services, found));
}

}  // namespace
}  // namespace hermes::registry
