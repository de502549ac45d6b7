// SPDX-License-Identifier: MIT
// The content-addressed store: objects round-trip, a one-line edit of a
// large file is stored as a delta of about that line, and chains of deltas
// come back exactly.
#include "checkpoint/blob_store.h"

#include "fs/atomic_write.h"
#include "testutil/status_matchers.h"
#include "testutil/temp_dir.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <string>

#include "checkpoint/record_format.h"

namespace hermes::checkpoint {
namespace {

using testing::TempDir;

uint64_t object_bytes(const BlobStore& store, const std::string& hash) {
  struct stat st {};
  return ::stat(store.path_of(hash).c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

std::string big_text() {
  std::string text;
  for (int i = 0; i < 20000; ++i) text += "line number " + std::to_string(i) + " of the file\n";
  return text;
}

TEST(BlobStore, StoresByContentHashOnce) {
  TempDir dir;
  BlobStore store(dir.path());
  auto hash = store.put("hello\n");
  ASSERT_TRUE(hash.has_value());
  EXPECT_EQ(*hash, fs::sha256_hex("hello\n"));
  EXPECT_EQ(store.get(*hash).value_or(""), "hello\n");
  EXPECT_EQ(store.put("hello\n").value_or(""), *hash);
  EXPECT_FALSE(store.get(fs::sha256_hex("missing")).has_value());
}

TEST(BlobStore, AOneLineEditCostsAboutTheLine) {
  TempDir dir;
  BlobStore store(dir.path());
  std::string before = big_text();
  std::string after = before;
  after.replace(after.find("line number 777 "), 16, "LINE NUMBER 777 ");
  auto base = store.put(before);
  ASSERT_TRUE(base.has_value());
  BlobStore::Base from{*base, before};
  auto edited = store.put(after, &from);
  ASSERT_TRUE(edited.has_value());
  EXPECT_LT(object_bytes(store, *edited), 64u);
  EXPECT_EQ(store.get(*edited).value_or(""), after);
  EXPECT_EQ(store.base_of(*edited), *base);
}

TEST(BlobStore, AChainOfDeltasComesBackExactly) {
  TempDir dir;
  BlobStore store(dir.path());
  std::string text = big_text();
  auto hash = store.put(text);
  ASSERT_TRUE(hash.has_value());
  std::vector<std::pair<std::string, std::string>> versions{{*hash, text}};
  for (int i = 0; i < 50; ++i) {
    std::string next = versions.back().second;
    next.insert(static_cast<size_t>(i) * 997 % next.size(), "edit " + std::to_string(i));
    BlobStore::Base base{versions.back().first, versions.back().second};
    auto stored = store.put(next, &base);
    ASSERT_TRUE(stored.has_value());
    versions.emplace_back(*stored, next);
  }
  EXPECT_EQ(store.depth_of(versions.back().first), 50);
  for (const auto& [h, content] : versions) EXPECT_EQ(store.get(h).value_or(""), content);
}

TEST(RecordFormat, AnyPathSurvivesAField) {
  std::string odd = "a\tb\nc%d%09 e";
  std::vector<std::string> fields = split_fields(join_fields({"x", odd, ""}));
  ASSERT_EQ(fields.size(), 3u);
  EXPECT_EQ(fields[1], odd);
  EXPECT_EQ(fields[2], "");
}

}  // namespace
}  // namespace hermes::checkpoint
