// SPDX-License-Identifier: MIT
// OpenAI's V4A scenario fixtures (tests/tools/patch/v4a_fixtures) through the patch
// tool: the tree after the call must equal expected/. 010, 011 and 015 are
// our documented divergences (no overwrite on Move/Add; atomic apply): the
// test asserts that the input tree is left untouched and the call fails.
#include "tools/write_file/tool_harness.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace hermes::testing {
namespace {

namespace fs = std::filesystem;

// A verbatim copy of shared/conformance/v4a (Apache-2.0, see its README.md
// and LICENSE file), kept in the repository so the test runs anywhere.
const fs::path kFixtures = fs::path(HERMES_SOURCE_DIR) / "tests/tools/patch/v4a_fixtures";

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Relative path → content for every file under `root` (directories as "/").
std::map<std::string, std::string> tree(const fs::path& root) {
  std::map<std::string, std::string> out;
  if (!fs::exists(root)) return out;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    std::string rel = fs::relative(e.path(), root).string();
    if (e.is_regular_file())
      out[rel] = slurp(e.path());
    else if (e.is_directory() && fs::is_empty(e.path()))
      out[rel + "/"] = "";
  }
  return out;
}

std::map<std::string, std::string> expectations() {
  std::map<std::string, std::string> out;
  std::ifstream tsv(kFixtures / "scenarios.tsv");
  std::string line;
  std::getline(tsv, line);  // header
  while (std::getline(tsv, line)) {
    auto tab = line.find('\t');
    out[line.substr(0, tab)] = line.substr(tab + 1, line.find('\t', tab + 1) - tab - 1);
  }
  return out;
}

class V4aScenario : public ::testing::TestWithParam<std::string> {};

TEST_P(V4aScenario, MatchesExpectedTree) {
  const std::string name = GetParam();
  const fs::path dir = kFixtures / name;
  TempDir work;
  if (fs::exists(dir / "input")) fs::copy(dir / "input", work.path(), fs::copy_options::recursive);
  ToolHarness tools({patch::register_patch});
  tools.session().set_cwd(work.path());
  Json out = tools.call("patch", {{"mode", "patch"}, {"patch", slurp(dir / "patch.txt")}});
  const bool diverges =
      name.starts_with("010_") || name.starts_with("011_") || name.starts_with("015_");
  const bool expect_error = diverges || expectations()[name] == "error";
  EXPECT_EQ(out.contains("error"), expect_error) << out.dump(2);
  const fs::path want = diverges ? dir / "input" : dir / "expected";
  EXPECT_EQ(tree(work.path()), tree(want)) << out.dump(2);
}

std::vector<std::string> scenarios() {
  std::vector<std::string> names;
  if (!fs::exists(kFixtures)) return names;
  for (const auto& e : fs::directory_iterator(kFixtures)) {
    if (e.is_directory()) names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

INSTANTIATE_TEST_SUITE_P(Codex, V4aScenario, ::testing::ValuesIn(scenarios()),
                         [](const ::testing::TestParamInfo<std::string>& param) {
                           std::string n = param.param;
                           std::replace_if(
                               n.begin(), n.end(),
                               [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); },
                               '_');
                           return n;
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(V4aScenario);

TEST(V4aDivergences, MessagesSayWhy) {
  ToolHarness tools({patch::register_patch});
  auto run = [&](const std::string& name) {
    TempDir work;
    fs::copy(kFixtures / name / "input", work.path(), fs::copy_options::recursive);
    tools.session().set_cwd(work.path());
    return tools
        .call("patch", {{"mode", "patch"}, {"patch", slurp(kFixtures / name / "patch.txt")}})
        .value("error", "");
  };
  ASSERT_TRUE(fs::exists(kFixtures)) << "fixtures missing: " << kFixtures;
  EXPECT_NE(run("010_move_overwrites_existing_destination")
                .find("destination already exists — move would overwrite"),
            std::string::npos);
  EXPECT_NE(run("011_add_overwrites_existing_file")
                .find("file already exists — use Update File, not Add File"),
            std::string::npos);
}

}  // namespace
}  // namespace hermes::testing
