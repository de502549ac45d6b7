// SPDX-License-Identifier: MIT
// The tree index finds exactly the paths whose state changed, reads only
// entries whose metadata moved, skips `.git` and ignored folders, and
// round-trips through its text form.
#include "checkpoint/tree_index.h"

#include "testutil/status_matchers.h"
#include "testutil/temp_dir.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

namespace hermes::checkpoint {
namespace {

using testing::TempDir;

TEST(TreeIndex, FindsEveryKindOfChangeAndNothingElse) {
  TempDir store_dir, work;
  BlobStore store(store_dir.path());
  work.write("a.txt", "a\n");
  work.write("d/b.txt", "b\n");
  work.write("d/c.txt", "c\n");
  work.write(".git/HEAD", "ref\n");
  work.write("node_modules/x.js", "x\n");
  ScanOptions options{.store = &store, .max_bytes = 1 << 20, .ignored = {"node_modules"}};
  auto first = scan_tree(work.path(), {}, options);
  ASSERT_TRUE(first.has_value());
  EXPECT_FALSE(first->index.contains(".git"));
  EXPECT_FALSE(first->index.contains("node_modules"));
  EXPECT_TRUE(first->index.contains("d/b.txt"));

  auto same = scan_tree(work.path(), first->index, options);
  ASSERT_TRUE(same.has_value());
  EXPECT_TRUE(same->changed.empty());

  work.write("a.txt", "A\n");
  ::unlink(work.file("d/b.txt").c_str());
  ::chmod(work.file("d/c.txt").c_str(), 0600);
  work.write("e/new.txt", "n\n");
  work.write(".git/HEAD", "other\n");
  auto after = scan_tree(work.path(), first->index, options);
  ASSERT_TRUE(after.has_value());
  std::vector<std::string> changed = after->changed;
  std::sort(changed.begin(), changed.end());
  EXPECT_EQ(changed, (std::vector<std::string>{"a.txt", "d/b.txt", "d/c.txt", "e", "e/new.txt"}));
}

TEST(TreeIndex, TextRoundTrip) {
  TempDir store_dir, work;
  BlobStore store(store_dir.path());
  work.write("with\ttab and %25.txt", "x");
  ASSERT_EQ(::symlink("target", work.file("link").c_str()), 0);
  auto scanned = scan_tree(work.path(), {}, {.store = &store, .max_bytes = 100});
  ASSERT_TRUE(scanned.has_value());
  auto parsed = parse_index(index_text(scanned->index));
  ASSERT_TRUE(parsed.has_value());
  ASSERT_EQ(parsed->size(), scanned->index.size());
  for (const auto& [rel, entry] : scanned->index) {
    ASSERT_TRUE(parsed->contains(rel)) << rel;
    EXPECT_TRUE(parsed->at(rel).state.same_as(entry.state)) << rel;
    EXPECT_EQ(parsed->at(rel).stamp, entry.stamp) << rel;
  }
  EXPECT_EQ(parsed->at("link").state.target, "target");
}

}  // namespace
}  // namespace hermes::checkpoint
