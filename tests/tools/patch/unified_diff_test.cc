// SPDX-License-Identifier: MIT
// The patch result's diff against GNU diff -U3 on the same two files: random
// edits (replace, insert, delete) at random places in files of unique lines,
// where the alignment is unambiguous, so both must print the same hunks.
#include "tools/patch/unified_diff.h"

#include "testutil/temp_dir.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <vector>

namespace hermes::patch {
namespace {

std::string join(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& line : lines) out += line + "\n";
  return out;
}

// GNU diff's hunks (its two header lines dropped).
std::string gnu_diff(const testing::TempDir& dir, const std::string& a, const std::string& b) {
  std::string pa = dir.write("a.txt", a), pb = dir.write("b.txt", b);
  std::string cmd = "diff -U3 '" + pa + "' '" + pb + "'";
  FILE* pipe = ::popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  ::pclose(pipe);
  for (int k = 0; k < 2 && !out.empty(); ++k) out.erase(0, out.find('\n') + 1);
  return out;
}

std::string ours(const std::string& a, const std::string& b) {
  std::string out = unified_diff(a, b, "a/f", "b/f");
  EXPECT_TRUE(out.empty() || out.starts_with("--- a/f\n+++ b/f\n"));
  for (int k = 0; k < 2 && !out.empty(); ++k) out.erase(0, out.find('\n') + 1);
  return out;
}

TEST(UnifiedDiff, MatchesGnuDiffOnRandomEdits) {
  testing::TempDir dir;
  std::mt19937 rng(19);
  int fresh = 0;
  for (int round = 0; round < 150; ++round) {
    std::vector<std::string> before;
    const int n = 1 + static_cast<int>(rng() % 400);
    for (int i = 0; i < n; ++i) before.push_back("line " + std::to_string(i));
    std::vector<std::string> after = before;
    const int edits = 1 + static_cast<int>(rng() % 3);
    for (int e = 0; e < edits && !after.empty(); ++e) {
      size_t at = rng() % after.size();
      switch (rng() % 3) {
        case 0:
          after[at] = "changed " + std::to_string(fresh++);
          break;
        case 1:
          after.insert(after.begin() + static_cast<long>(at), "added " + std::to_string(fresh++));
          break;
        default:
          after.erase(after.begin() + static_cast<long>(at));
          break;
      }
    }
    std::string a = join(before), b = join(after);
    ASSERT_EQ(ours(a, b), gnu_diff(dir, a, b)) << "round " << round;
  }
}

TEST(UnifiedDiff, LineNumbersDeepInALargeFile) {
  std::vector<std::string> lines;
  for (int i = 1; i <= 5000; ++i) lines.push_back("v" + std::to_string(i));
  std::string a = join(lines);
  lines[4199] = "edited";
  EXPECT_EQ(unified_diff(a, join(lines), "a/f", "b/f"),
            "--- a/f\n+++ b/f\n@@ -4197,7 +4197,7 @@\n v4197\n v4198\n v4199\n-v4200\n+edited\n"
            " v4201\n v4202\n v4203\n");
  EXPECT_EQ(unified_diff(a, a, "a/f", "b/f"), "");
}

TEST(UnifiedDiff, EditsInsideARepeatedRunAndAtTheEnds) {
  EXPECT_EQ(unified_diff("x\nx\nx\nx\n", "x\nx\nx\nx\nx\n", "a", "b"),
            "--- a\n+++ b\n@@ -2,3 +2,4 @@\n x\n x\n x\n+x\n");
  EXPECT_EQ(unified_diff("first\nsame\n", "zeroth\nsame\n", "a", "b"),
            "--- a\n+++ b\n@@ -1,2 +1,2 @@\n-first\n+zeroth\n same\n");
  EXPECT_EQ(unified_diff("a\nb", "a\nc", "a", "b"), "--- a\n+++ b\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n");
}

TEST(DiffLabel, RelativeGetsItsSideAbsoluteStaysAsIs) {
  EXPECT_EQ(diff_label("a", "calc/ops.py"), "a/calc/ops.py");
  EXPECT_EQ(diff_label("b", "calc/ops.py"), "b/calc/ops.py");
  EXPECT_EQ(diff_label("a", "/srv/proj/ops.py"), "/srv/proj/ops.py");
}

}  // namespace
}  // namespace hermes::patch
