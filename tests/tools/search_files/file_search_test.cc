// SPDX-License-Identifier: MIT
// search_files files target: ordering (docs/tools/search_files.md), .gitignore and hidden
// rules, glob preparation, aliases and paging.
#include "tools/search_files/file_engine.h"
#include "tools/search_files/search_harness.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

namespace hermes::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::UnorderedElementsAre;

std::vector<std::string> files_of(const Json& out) {
  std::vector<std::string> files;
  if (out.contains("files")) {
    for (const auto& f : out["files"]) files.push_back(f.get<std::string>());
  }
  return files;
}

class FileSearch : public ::testing::Test {
 protected:
  SearchHarness h;
  const TempDir& tree() { return h.tree(); }
};

TEST_F(FileSearch, NewestFirstByDefault) {
  set_mtime(tree().write("old.py", "x"), 1'000'000);
  set_mtime(tree().write("deep/newest.py", "x"), 3'000'000);
  set_mtime(tree().write("mid.py", "x"), 2'000'000);
  Json out = h.call({{"pattern", "*.py"}, {"target", "files"}});
  EXPECT_THAT(files_of(out), ElementsAre("./deep/newest.py", "./mid.py", "./old.py")) << out.dump();
  EXPECT_EQ(out["total_count"], 3);
}

TEST_F(FileSearch, DiscoveryOrderListsTheSameFiles) {
  set_mtime(tree().write("old.py", "x"), 1'000'000);
  set_mtime(tree().write("new.py", "x"), 3'000'000);
  Json out = h.call({{"pattern", "*.py"}, {"target", "find"}, {"order", "discovery"}});
  EXPECT_THAT(files_of(out), UnorderedElementsAre("./old.py", "./new.py")) << out.dump();
}

TEST_F(FileSearch, InvalidOrderIsRefused) {
  Json out = h.call({{"pattern", "*"}, {"target", "files"}, {"order", "size"}});
  EXPECT_EQ(out["error"], "Invalid file search order 'size'; expected 'discovery' or 'modified'.");
}

TEST_F(FileSearch, GitignoreAndHiddenAreRespectedEvenWithAGlob) {
  ::mkdir(tree().file(".git").c_str(), 0755);
  tree().write(".gitignore", "build.log\n");
  tree().write("build.log", "x");
  tree().write("app.log", "x");
  tree().write(".hidden.log", "x");
  tree().write(".cache/inner.log", "x");
  Json out = h.call({{"pattern", "*.log"}, {"target", "files"}});
  EXPECT_THAT(files_of(out), ElementsAre("./app.log")) << out.dump();
}

TEST_F(FileSearch, PatternsArePreparedLikeTheUpstream) {
  EXPECT_EQ(search::prepare_file_glob("src/*.py", true), "*.py");
  EXPECT_EQ(search::prepare_file_glob("**/foo.py", false), "foo.py");
  EXPECT_EQ(search::prepare_file_glob("foo.py", true), "*foo.py");
  EXPECT_EQ(search::prepare_file_glob("*config*", true), "*config*");
  tree().write("foo.py", "x");
  tree().write("lib/xfoo.py", "x");
  tree().write("bar.py", "x");
  Json out = h.call({{"pattern", "src/foo.py"}, {"target", "files"}});
  EXPECT_THAT(files_of(out), UnorderedElementsAre("./foo.py", "./lib/xfoo.py")) << out.dump();
}

TEST_F(FileSearch, PagingIsTrueAndUnicodeNamesSurvive) {
  for (int i = 0; i < 7; ++i) {
    set_mtime(tree().write("f" + std::to_string(i) + "_é.txt", "x"), 1'000'000 + i);
  }
  Json page = h.call({{"pattern", "*.txt"}, {"target", "files"}, {"limit", 3}, {"offset", 3}});
  EXPECT_THAT(files_of(page), ElementsAre("./f3_é.txt", "./f2_é.txt", "./f1_é.txt"));
  EXPECT_EQ(page["total_count"], 7);
  EXPECT_EQ(page["truncated"], true);
  EXPECT_EQ(page["_hint"],
            "Results truncated. Use offset=6 to see more, or narrow with a more specific "
            "pattern or file_glob.");
  Json discovery =
      h.call({{"pattern", "*.txt"}, {"target", "files"}, {"limit", 3}, {"order", "discovery"}});
  EXPECT_EQ(discovery["total_count"], 7);
  EXPECT_EQ(discovery["truncated"], true);
}

TEST_F(FileSearch, SeveralRootsAreOneListing) {
  set_mtime(tree().write("a/one.md", "x"), 1'000'000);
  set_mtime(tree().write("b/two.md", "x"), 2'000'000);
  Json out = h.call({{"pattern", "*.md"}, {"target", "files"}, {"path", "a b missing"}});
  EXPECT_THAT(files_of(out), ElementsAre("b/two.md", "a/one.md")) << out.dump();
  EXPECT_EQ(out["warning"],
            "path contained 3 entries; searched 2 that exist; skipped missing: missing");
}

TEST_F(FileSearch, DenylistedFilesAreOmitted) {
  h.home().write("auth.json", "{}");
  h.home().write("mcp-tokens/t.json", "{}");
  h.home().write("config.json", "{}");
  Json out = h.call({{"pattern", "*.json"}, {"target", "files"}, {"path", h.home().path()}});
  EXPECT_THAT(files_of(out), ElementsAre(h.home().path() + "/config.json")) << out.dump();
  EXPECT_EQ(out["total_count"], 1);
  EXPECT_EQ(out["_omitted"].get<std::string>().substr(0, 12), "2 result(s) ");
}

TEST_F(FileSearch, ALinkedCredentialStoreIsOmittedWhereItLives) {
  TempDir vault;
  vault.write("token-store.json", "{}");
  vault.write("plain.json", "{}");
  ASSERT_EQ(::symlink(vault.file("token-store.json").c_str(), h.home().file("auth.json").c_str()),
            0);
  Json out = h.call({{"pattern", "*.json"}, {"target", "files"}, {"path", vault.path()}});
  EXPECT_THAT(files_of(out), ElementsAre(vault.path() + "/plain.json")) << out.dump();
  EXPECT_TRUE(out.contains("_omitted"));
}

}  // namespace
}  // namespace hermes::testing
