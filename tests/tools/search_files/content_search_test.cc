// SPDX-License-Identifier: MIT
// search_files content target through the tool handler: result shapes, true
// totals, paging, probes, multiline, bad input, redaction and the denylist.
#include "tools/search_files/search_harness.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <chrono>
#include <set>

namespace hermes::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

class ContentSearch : public ::testing::Test {
 protected:
  SearchHarness h;
  const TempDir& tree() { return h.tree(); }
};

TEST_F(ContentSearch, FewMatchesComeAsAnArrayOfPathLineContent) {
  tree().write("a.txt", "alpha\nneedle one\nbeta\n");
  tree().write("sub/b.txt", "needle two\n");
  Json out = h.call({{"pattern", "needle"}});
  ASSERT_EQ(out["total_count"], 2) << out.dump();
  ASSERT_TRUE(out.contains("matches"));
  EXPECT_FALSE(out.contains("truncated"));
  std::set<std::string> seen;
  for (const auto& m : out["matches"]) {
    seen.insert(m["path"].get<std::string>() + ":" + std::to_string(m["line"].get<int>()) + ":" +
                m["content"].get<std::string>());
  }
  EXPECT_EQ(seen, (std::set<std::string>{"./a.txt:2:needle one", "./sub/b.txt:1:needle two"}));
  EXPECT_EQ(out.begin().key(), "total_count");
}

TEST_F(ContentSearch, FiveMatchesBecomePathGroupedText) {
  tree().write("one.txt", "hit 1\nhit 2\nhit 3   \n");
  tree().write("two.txt", "x\nhit 4\nhit 5\n");
  Json out = h.call({{"pattern", "hit"}, {"path", "one.txt, two.txt"}});
  ASSERT_EQ(out["total_count"], 5) << out.dump();
  EXPECT_FALSE(out.contains("matches"));
  EXPECT_EQ(out["matches_format"],
            "path-grouped: each file path on its own line, followed by indented '<line>: "
            "<content>' rows for matches in that file");
  // rg walks roots in parallel: either file may come first, each grouped.
  std::string one = "one.txt\n  1: hit 1\n  2: hit 2\n  3: hit 3";
  std::string two = "two.txt\n  2: hit 4\n  3: hit 5";
  EXPECT_THAT(out["matches_text"].get<std::string>(),
              ::testing::AnyOf(one + "\n" + two, two + "\n" + one));
  EXPECT_THAT(out["warning"].get<std::string>(),
              StartsWith("path contained 2 entries; searched 2 that exist"));
}

TEST_F(ContentSearch, TruncationReportsTheTrueTotalAndAHint) {
  tree().write("many.txt", numbered_lines("needle", 60));
  Json out = h.call({{"pattern", "needle"}, {"limit", 50}});
  EXPECT_EQ(out["total_count"], 60) << out.dump();
  EXPECT_EQ(out["truncated"], true);
  EXPECT_EQ(out["total_count_is_lower_bound"], true);
  EXPECT_EQ(out["_hint"],
            "Results truncated. Use offset=50 to see more, or narrow with a more specific "
            "pattern or file_glob.");
  Json rest = h.call({{"pattern", "needle"}, {"limit", 50}, {"offset", 50}});
  EXPECT_EQ(rest["total_count"], 60);
  EXPECT_FALSE(rest.contains("truncated"));
  EXPECT_THAT(rest["matches_text"].get<std::string>(), StartsWith("./many.txt\n  51: needle 51"));
}

TEST_F(ContentSearch, HugeResultSetsSayTheTotalIsALowerBound) {
  tree().write("huge.txt", numbered_lines("x", 10'100));
  Json out = h.call({{"pattern", "x"}, {"limit", 10}, {"output_mode", "content"}});
  EXPECT_EQ(out["truncated"], true) << out.dump().substr(0, 300);
  EXPECT_EQ(out["total_count_is_lower_bound"], true);
  EXPECT_EQ(out["total_count"], 10 + 10'000);
}

TEST_F(ContentSearch, FilesOnlyAndCountModes) {
  tree().write("a.txt", "k\nk\nk\n");
  tree().write("b.txt", "k\n");
  tree().write("c.txt", "none\n");
  Json files = h.call({{"pattern", "k"}, {"output_mode", "files_only"}});
  EXPECT_EQ(files["total_count"], 2) << files.dump();
  EXPECT_EQ(files["files"].size(), 2u);
  Json counts = h.call({{"pattern", "k"}, {"output_mode", "count"}});
  EXPECT_EQ(counts["total_count"], 4) << counts.dump();
  EXPECT_EQ(counts["counts"]["./a.txt"], 3);
  EXPECT_EQ(counts["counts"]["./b.txt"], 1);
}

TEST_F(ContentSearch, ContextLinesCountAndOddFileNamesParse) {
  tree().write("dir/file-12-name:x.txt", "before\ntarget\nafter\n\n\n\nbefore\ntarget\n");
  Json out = h.call({{"pattern", "target"}, {"context", 1}});
  ASSERT_EQ(out["total_count"], 5) << out.dump();
  EXPECT_EQ(out["matches_text"],
            "./dir/file-12-name:x.txt\n  1: before\n  2: target\n  3: after\n  7: before\n"
            "  8: target");
}

TEST_F(ContentSearch, CrLfUnicodeNamesBinaryAndLongLines) {
  tree().write("crlf.txt", "one\r\nfind me\r\n");
  tree().write("ünï cödé.txt", "find me too\n");
  tree().write("bin.dat", std::string("find me\0\x01\x02", 10));
  tree().write("long.txt", "find me " + std::string(5000, 'z') + "\n");
  Json out = h.call({{"pattern", "find me"}, {"output_mode", "content"}});
  ASSERT_EQ(out["total_count"], 3) << out.dump();
  for (const auto& m : out["matches"]) {
    std::string content = m["content"];
    EXPECT_NE(m["path"], "./bin.dat");
    EXPECT_LE(content.size(), 500u);
    EXPECT_FALSE(content.ends_with("\r"));
  }
}

TEST_F(ContentSearch, GitignoredAndHiddenFilesAreSkippedAndTheProbeSaysSo) {
  ::mkdir(tree().file(".git").c_str(), 0755);
  tree().write(".gitignore", "ignored.txt\n");
  tree().write("ignored.txt", "secretword\n");
  tree().write(".hidden/h.txt", "secretword\n");
  tree().write("visible.txt", "nothing\n");
  Json out = h.call({{"pattern", "secretword"}});
  EXPECT_EQ(out["total_count"], 0) << out.dump();
  EXPECT_THAT(out["warning"].get<std::string>(),
              StartsWith("0 matches in visible files, but 2 match(es) in 2 hidden or "
                         "gitignored file(s): "));
  EXPECT_THAT(out["warning"].get<std::string>(), HasSubstr("— these are excluded by default."));
}

TEST_F(ContentSearch, FileGlobKeepsGitignoreInForce) {
  ::mkdir(tree().file(".git").c_str(), 0755);
  tree().write(".gitignore", "gen.py\n");
  tree().write("gen.py", "token\n");
  tree().write("src.py", "token\n");
  tree().write("notes.md", "token\n");
  tree().write(".hidden.py", "token\n");
  Json out = h.call({{"pattern", "token"}, {"file_glob", "*.py"}});
  ASSERT_EQ(out["total_count"], 1) << out.dump();
  EXPECT_EQ(out["matches"][0]["path"], "./src.py");
}

TEST_F(ContentSearch, CaseAndLiteralProbes) {
  tree().write("a.txt", "Hello World\nprice is $5.00 (approx)\n");
  Json ci = h.call({{"pattern", "hello world"}});
  EXPECT_EQ(ci["warning"],
            "0 exact matches, but 1 case-insensitive match(es) in 1 file(s): ./a.txt — the "
            "pattern's casing may be wrong.");
  Json lit2 = h.call({{"pattern", "$5.00 (approx)"}});
  EXPECT_THAT(lit2["warning"].get<std::string>(),
              StartsWith("0 regex matches, but 1 literal match(es) in 1 file(s): ./a.txt — the "
                         "pattern contains regex metacharacters"));
}

TEST_F(ContentSearch, InvalidRegexIsASearchFailureWithRgsDiagnostic) {
  tree().write("a.txt", "x\n");
  Json out = h.call({{"pattern", "a("}});
  EXPECT_THAT(out["error"].get<std::string>(), StartsWith("Search failed: regex parse error"));
  EXPECT_EQ(out["total_count"], 0);
}

TEST_F(ContentSearch, NewlinePatternsTurnOnMultiline) {
  tree().write("a.txt", "first\nsecond\nthird\n");
  Json out = h.call({{"pattern", "first\\nsecond"}});
  EXPECT_EQ(out["total_count"], 2) << out.dump();
  EXPECT_THAT(out["warning"].get<std::string>(),
              StartsWith("Pattern contains \\n — multiline mode (-U) was enabled automatically"));
  Json literal = h.call({{"pattern", "first\\\\nsecond"}});  // escaped backslash: no multiline
  EXPECT_FALSE(literal.contains("warning") &&
               literal["warning"].get<std::string>().starts_with("Pattern contains"));
}

TEST_F(ContentSearch, CatastrophicPatternsFinishQuickly) {
  tree().write("a.txt", std::string(5000, 'a') + "\n");
  auto start = std::chrono::steady_clock::now();
  Json out = h.call({{"pattern", "(a*)*b"}});
  EXPECT_EQ(out["total_count"], 0) << out.dump();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST_F(ContentSearch, FileRootWorksAndFifoRootOrFifoInTreeDoesNotHang) {
  tree().write("only.txt", "needle\n");
  ASSERT_EQ(::mkfifo(tree().file("pipe").c_str(), 0644), 0);
  Json file = h.call({{"pattern", "needle"}, {"path", "only.txt"}});
  EXPECT_EQ(file["total_count"], 1) << file.dump();
  EXPECT_EQ(file["matches"][0]["path"], "only.txt");
  Json tree_search = h.call({{"pattern", "needle"}});
  EXPECT_EQ(tree_search["total_count"], 1) << tree_search.dump();
  Json fifo = h.call({{"pattern", "needle"}, {"path", "pipe"}});
  EXPECT_EQ(fifo["error"],
            "Cannot search 'pipe': it is a FIFO (named pipe), not a regular file or directory.");
}

TEST_F(ContentSearch, SecretsInMatchesAreRedacted) {
  tree().write("config.py", "API_KEY = 'sk-abcdefghijklmnopqrstuvwxyz123456'\n");
  Json out = h.call({{"pattern", "API_KEY"}});
  std::string content = out["matches"][0]["content"];
  EXPECT_EQ(content.find("abcdefghijklmnopqrstuvwxyz123456"), std::string::npos) << content;
  EXPECT_THAT(content, HasSubstr("API_KEY"));
}

TEST_F(ContentSearch, DenylistedResultsAreDroppedWithOmitted) {
  const TempDir& home = h.home();
  home.write("auth.json", "{\"needle\": 1}\n");
  home.write("notes.txt", "needle\n");
  Json out = h.call({{"pattern", "needle"}, {"path", home.path()}});
  ASSERT_EQ(out["total_count"], 1) << out.dump();
  EXPECT_EQ(out["matches"][0]["path"], home.path() + "/notes.txt");
  EXPECT_EQ(out["_omitted"],
            "1 result(s) omitted because they target credential, token, cache, or "
            "secret-bearing environment files.");
  Json root = h.call({{"pattern", "needle"}, {"path", home.file("auth.json")}});
  EXPECT_THAT(root["error"].get<std::string>(), StartsWith("Access denied: "));
  tree().write(".env", "needle=1\n");
  Json env = h.call({{"pattern", "needle"}, {"path", ".env"}});
  EXPECT_THAT(env["error"].get<std::string>(), StartsWith("Access denied: "));
}

}  // namespace
}  // namespace hermes::testing
