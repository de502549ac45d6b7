// SPDX-License-Identifier: MIT
// The content-addressed store: objects round-trip, a one-line edit of a
// large file is stored as a delta of about that line, and chains of deltas
// come back exactly.
#include "checkpoint/blob_store.h"

#include "core/strings.h"
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

// A damaged store (or one another process wrote) is an error, never a
// crash: offsets that overflow, a delta naming itself.
TEST(BlobStore, DamagedDeltasAreErrors) {
  TempDir dir;
  BlobStore store(dir.path());
  auto base = store.put("abc");
  ASSERT_TRUE(base.has_value());
  auto write_object = [&](const std::string& hash, const std::string& bytes) {
    std::string path = store.path_of(hash);
    ::mkdir(path.substr(0, path.rfind('/')).c_str(), 0700);
    FILE* f = std::fopen(path.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fwrite(bytes.data(), 1, bytes.size(), f);
    std::fclose(f);
  };
  std::string wrapping = "D" + *hex_decode(*base);
  append_varint(wrapping, 1);
  append_varint(wrapping, UINT64_MAX - 4);  // with the suffix, wraps to 3
  append_varint(wrapping, 8);
  std::string bad = fs::sha256_hex("wrapping");
  write_object(bad, wrapping);
  EXPECT_FALSE(store.get(bad).has_value());

  std::string self = fs::sha256_hex("self");
  std::string loop = "D" + *hex_decode(self);
  append_varint(loop, 1);
  append_varint(loop, 0);
  append_varint(loop, 0);
  write_object(self, loop + std::string(1 << 20, 'm'));
  auto looped = store.get(self);
  ASSERT_FALSE(looped.has_value());
  EXPECT_NE(looped.error().message.find("loop"), std::string::npos);
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
