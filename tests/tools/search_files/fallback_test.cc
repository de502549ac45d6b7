// SPDX-License-Identifier: MIT
// search_files without ripgrep: grep for content, find for files, the
// refusals, and availability — rg is hidden by pointing PATH at a folder
// with links to just the tools a test allows.
#include "tools/search_files/search_harness.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>

namespace hermes::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::StartsWith;
using ::testing::UnorderedElementsAre;

class Fallback : public ::testing::Test {
 protected:
  SearchHarness h;
  const TempDir& tree() { return h.tree(); }
};

TEST_F(Fallback, GrepGivesTheSameShapeAndPathsAsRg) {
  tree().write("a.txt", "needle one\n");
  tree().write("sub/b:c.txt", "needle two\n");
  tree().write(".hidden/h.txt", "needle hidden\n");
  tree().write(".dotfile", "needle dotfile\n");
  Json with_rg = h.call({{"pattern", "needle (one|two)"}});
  FakeBin bin({"grep", "find"});
  ScopedPath path(bin.path());
  // The portable path keeps the target's engines until another tool runs.
  h.session().notify_other_tool_call();
  Json out = h.call({{"pattern", "needle (one|two)"}, {"limit", 10}});
  ASSERT_EQ(out["total_count"], 2) << out.dump();
  std::set<std::string> rg_paths, grep_paths;
  for (const auto& m : with_rg["matches"]) rg_paths.insert(m["path"]);
  for (const auto& m : out["matches"]) grep_paths.insert(m["path"]);
  EXPECT_EQ(grep_paths, rg_paths);
  // Hidden directories are skipped, hidden files are not (as upstream).
  Json hidden = h.call({{"pattern", "needle"}, {"output_mode", "files_only"}});
  std::vector<std::string> files = hidden["files"];
  EXPECT_THAT(files, UnorderedElementsAre("./a.txt", "./sub/b:c.txt", "./.dotfile"));
}

TEST_F(Fallback, GrepInvalidRegexAndNewlineWarning) {
  tree().write("a.txt", "x\n");
  FakeBin bin({"grep", "find"});
  ScopedPath path(bin.path());
  Json bad = h.call({{"pattern", "a("}});
  EXPECT_THAT(bad["error"].get<std::string>(), StartsWith("Search failed: grep: "));
  Json newline = h.call({{"pattern", "nothing\\nhere"}});
  EXPECT_THAT(newline["warning"].get<std::string>(),
              StartsWith("0 results found. Note: search_files content search is line-oriented"));
}

TEST_F(Fallback, GrepHonoursFileGlobAndCountMode) {
  tree().write("a.py", "k\nk\n");
  tree().write("b.md", "k\n");
  FakeBin bin({"grep", "find"});
  ScopedPath path(bin.path());
  Json out = h.call({{"pattern", "k"}, {"file_glob", "*.py"}, {"output_mode", "count"}});
  EXPECT_EQ(out["total_count"], 2) << out.dump();
  EXPECT_EQ(out["counts"].size(), 1u);
  EXPECT_EQ(out["counts"]["./a.py"], 2);
}

TEST_F(Fallback, FindListsFilesSkippingHidden) {
  set_mtime(tree().write("old.txt", "x"), 1'000'000);
  set_mtime(tree().write("d/new.txt", "x"), 2'000'000);
  tree().write(".h/x.txt", "x");
  tree().write(".x.txt", "x");
  FakeBin bin({"find"});
  ScopedPath path(bin.path());
  Json out = h.call({{"pattern", "*.txt"}, {"target", "files"}});
  std::vector<std::string> files = out["files"];
  EXPECT_THAT(files, ElementsAre("./d/new.txt", "./old.txt")) << out.dump();
}

TEST_F(Fallback, BroadFindIsRefusedAndMissingEnginesAreNamed) {
  FakeBin find_only({"find"});
  {
    ScopedPath path(find_only.path());
    Json broad = h.call({{"pattern", "*.txt"}, {"target", "files"}, {"path", "/"}});
    EXPECT_THAT(broad["error"].get<std::string>(),
                StartsWith("Broad local file search without ripgrep is disabled"));
    Json content = h.call({{"pattern", "x"}});
    EXPECT_EQ(content["error"],
              "Content search requires ripgrep (rg) or grep. Install ripgrep: "
              "https://github.com/BurntSushi/ripgrep#installation");
  }
  FakeBin nothing({});
  ScopedPath path(nothing.path());
  h.session().notify_other_tool_call();  // as above
  Json files = h.call({{"pattern", "*"}, {"target", "files"}});
  EXPECT_THAT(files["error"].get<std::string>(),
              StartsWith("File search requires 'rg' (ripgrep) or 'find'."));
  EXPECT_FALSE(h.spec().is_available(h.services()));
}

TEST_F(Fallback, AvailableWithAnyEngine) {
  FakeBin grep_only({"grep"});
  ScopedPath path(grep_only.path());
  EXPECT_TRUE(h.spec().is_available(h.services()));
}

}  // namespace
}  // namespace hermes::testing
