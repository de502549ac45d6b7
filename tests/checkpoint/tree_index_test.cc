// SPDX-License-Identifier: MIT
// The tree index finds exactly the paths whose state changed, reads only
// entries whose metadata moved, skips `.git` and ignored folders, looks
// only where a scoped refresh is sent, and round-trips through its text
// form, appended lines included.
#include "checkpoint/tree_index.h"

#include "testutil/status_matchers.h"
#include "testutil/temp_dir.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

namespace hermes::checkpoint {
namespace {

using testing::IsOk;
using testing::TempDir;

std::vector<std::string> paths_of(const Refresh& refresh) {
  std::vector<std::string> out;
  for (const IndexChange& change : refresh.changed) out.push_back(change.path);
  return out;
}

ScanScope scoped(std::set<std::string> entries, std::set<std::string> subtrees = {}) {
  return ScanScope{.whole = false, .entries = std::move(entries), .subtrees = std::move(subtrees)};
}

TEST(TreeIndex, FindsEveryKindOfChangeAndNothingElse) {
  TempDir store_dir, work;
  BlobStore store(store_dir.path());
  work.write("a.txt", "a\n");
  work.write("d/b.txt", "b\n");
  work.write("d/c.txt", "c\n");
  work.write(".git/HEAD", "ref\n");
  work.write("node_modules/x.js", "x\n");
  ScanOptions options{.store = &store, .max_bytes = 1 << 20, .ignored = {"node_modules"}};
  TreeIndex index;
  auto first = refresh_index(work.path(), index, {}, options);
  ASSERT_TRUE(first.has_value());
  EXPECT_FALSE(index.contains(".git"));
  EXPECT_EQ(index.at("node_modules").state.kind, Kind::kIgnoredDir);
  EXPECT_FALSE(index.contains("node_modules/x.js"));
  EXPECT_TRUE(index.contains("d/b.txt"));

  auto same = refresh_index(work.path(), index, {}, options);
  ASSERT_TRUE(same.has_value());
  EXPECT_TRUE(same->changed.empty());

  work.write("a.txt", "A\n");
  ::unlink(work.file("d/b.txt").c_str());
  ::chmod(work.file("d/c.txt").c_str(), 0600);
  work.write("e/new.txt", "n\n");
  work.write(".git/HEAD", "other\n");
  auto after = refresh_index(work.path(), index, {}, options);
  ASSERT_TRUE(after.has_value());
  EXPECT_EQ(paths_of(*after),
            (std::vector<std::string>{"a.txt", "d/b.txt", "d/c.txt", "e", "e/new.txt"}));
  EXPECT_EQ(after->changed[0].was.kind, Kind::kFile);
  EXPECT_FALSE(index.contains("d/b.txt"));
}

TEST(TreeIndex, AScopedRefreshLooksOnlyWhereItIsSent) {
  TempDir store_dir, work;
  BlobStore store(store_dir.path());
  work.write("a.txt", "a\n");
  work.write("b.txt", "b\n");
  work.write("d/x/y.txt", "y\n");
  ScanOptions options{.store = &store, .max_bytes = 1 << 20};
  TreeIndex index;
  ASSERT_TRUE(refresh_index(work.path(), index, {}, options).has_value());

  work.write("a.txt", "A\n");
  work.write("b.txt", "B\n");
  auto only_a = refresh_index(work.path(), index, scoped({"a.txt"}), options);
  ASSERT_TRUE(only_a.has_value());
  EXPECT_EQ(paths_of(*only_a), std::vector<std::string>{"a.txt"});

  // A subtree removed: everything the index had beneath it goes.
  ASSERT_EQ(std::system(("rm -rf '" + work.file("d") + "'").c_str()), 0);
  auto removed = refresh_index(work.path(), index, scoped({}, {"d"}), options);
  ASSERT_TRUE(removed.has_value());
  EXPECT_EQ(paths_of(*removed), (std::vector<std::string>{"d", "d/x", "d/x/y.txt"}));
  EXPECT_FALSE(index.contains("d/x/y.txt"));

  // Named as a plain entry (a stale name), a directory the index did not
  // have is walked all the same.
  work.write("n/m/deep.txt", "z\n");
  auto walked = refresh_index(work.path(), index, scoped({"n"}), options);
  ASSERT_TRUE(walked.has_value());
  EXPECT_EQ(paths_of(*walked), (std::vector<std::string>{"n", "n/m", "n/m/deep.txt"}));

  // A directory replaced by a file, named as an entry: its old entries go.
  ASSERT_EQ(std::system(("rm -rf '" + work.file("n") + "'").c_str()), 0);
  work.write("n", "now a file\n");
  auto replaced = refresh_index(work.path(), index, scoped({"n"}), options);
  ASSERT_TRUE(replaced.has_value());
  EXPECT_EQ(paths_of(*replaced), (std::vector<std::string>{"n", "n/m", "n/m/deep.txt"}));
  EXPECT_EQ(index.at("n").state.kind, Kind::kFile);
}

TEST(TreeIndex, AScopedRefreshNeverEntersGitIgnoredFoldersOrLinks) {
  TempDir store_dir, work, outside;
  BlobStore store(store_dir.path());
  work.write(".git/HEAD", "ref\n");
  work.write("build/out.o", "o\n");
  outside.write("secret.txt", "s\n");
  ASSERT_EQ(::symlink(outside.path().c_str(), work.file("link").c_str()), 0);
  ScanOptions options{.store = &store, .max_bytes = 1 << 20, .ignored = {"build"}};
  TreeIndex index;
  ASSERT_TRUE(refresh_index(work.path(), index, {}, options).has_value());
  auto none = refresh_index(
      work.path(), index,
      scoped({".git/HEAD", "build/out.o", "link/secret.txt"}, {".git", "build"}), options);
  ASSERT_TRUE(none.has_value());
  EXPECT_TRUE(none->changed.empty());
  EXPECT_FALSE(index.contains("link/secret.txt"));
  EXPECT_FALSE(index.contains(".git"));
}

// Ignored build output is recorded by its metadata only: the folder coming
// or going is a change, what happens inside it is not looked at.
TEST(TreeIndex, AnIgnoredFolderIsKeptByItsMetadataOnly) {
  TempDir store_dir, work;
  BlobStore store(store_dir.path());
  work.write("build/out.o", "o\n");
  ScanOptions options{.store = &store, .max_bytes = 1 << 20, .ignored = {"build"}};
  TreeIndex index;
  ASSERT_TRUE(refresh_index(work.path(), index, {}, options).has_value());
  EXPECT_EQ(index.at("build").state.kind, Kind::kIgnoredDir);
  EXPECT_EQ(index.size(), 1u);

  work.write("build/more.o", "m\n");
  work.write("build/deep/x.o", "x\n");
  for (const ScanScope& scope : {ScanScope{}, scoped({"build"}), scoped({}, {"build"})}) {
    auto inside = refresh_index(work.path(), index, scope, options);
    ASSERT_TRUE(inside.has_value());
    EXPECT_TRUE(inside->changed.empty());
  }

  ASSERT_EQ(std::system(("rm -rf '" + work.file("build") + "'").c_str()), 0);
  auto removed = refresh_index(work.path(), index, scoped({}, {"build"}), options);
  ASSERT_TRUE(removed.has_value());
  ASSERT_EQ(paths_of(*removed), std::vector<std::string>{"build"});
  EXPECT_EQ(removed->changed[0].was.kind, Kind::kIgnoredDir);
  EXPECT_EQ(removed->changed[0].is.kind, Kind::kAbsent);

  work.write("build/again.o", "a\n");
  auto made = refresh_index(work.path(), index, {}, options);
  ASSERT_TRUE(made.has_value());
  ASSERT_EQ(paths_of(*made), std::vector<std::string>{"build"});
  EXPECT_TRUE(made->changed[0].is.unrecoverable());
}

TEST(TreeIndex, TheCapCountsWhatAScopedRefreshWouldAdd) {
  TempDir store_dir, work;
  BlobStore store(store_dir.path());
  work.write("a.txt", "a\n");
  ScanOptions options{.store = &store, .max_bytes = 1 << 20, .max_entries = 3};
  TreeIndex index;
  ASSERT_TRUE(refresh_index(work.path(), index, {}, options).has_value());
  work.write("d/1", "1");
  work.write("d/2", "2");
  TreeIndex kept = index;
  auto over = refresh_index(work.path(), index, scoped({}, {"d"}), options);
  ASSERT_FALSE(over.has_value());
  EXPECT_EQ(over.error().code, ErrorCode::kTooLarge);
  EXPECT_EQ(index.size(), kept.size());  // unchanged on error
}

TEST(TreeIndex, TextRoundTripWithAppendedLines) {
  TempDir store_dir, work;
  BlobStore store(store_dir.path());
  work.write("with\ttab and %25.txt", "x");
  work.write("gone.txt", "g");
  ASSERT_EQ(::symlink("target", work.file("link").c_str()), 0);
  TreeIndex index;
  ASSERT_TRUE(refresh_index(work.path(), index, {}, {.store = &store, .max_bytes = 100}));
  TreeIndex parsed;
  ASSERT_THAT(parse_index(index_text(index), parsed), IsOk());
  ASSERT_EQ(parsed.size(), index.size());
  for (const auto& [rel, entry] : index) {
    ASSERT_TRUE(parsed.contains(rel)) << rel;
    EXPECT_TRUE(parsed.at(rel).state.same_as(entry.state)) << rel;
    EXPECT_EQ(parsed.at(rel).stamp, entry.stamp) << rel;
  }
  EXPECT_EQ(parsed.at("link").state.target, "target");

  ::unlink(work.file("gone.txt").c_str());
  auto removed =
      refresh_index(work.path(), index, scoped({"gone.txt"}), {.store = &store, .max_bytes = 100});
  ASSERT_TRUE(removed.has_value());
  ASSERT_THAT(parse_index(index_lines(index, removed->written), parsed), IsOk());
  EXPECT_FALSE(parsed.contains("gone.txt"));
  EXPECT_EQ(parsed.size(), index.size());
}

}  // namespace
}  // namespace hermes::checkpoint
