// SPDX-License-Identifier: MIT
// The content-addressed store: objects round-trip, a one-line edit of a
// large file is stored as a delta of about that line, and chains of deltas
// come back exactly.
#include "checkpoint/blob_store.h"

#include "core/strings.h"
#include "fs/atomic_write.h"
#include "proc/unique_fd.h"
#include "testutil/reflink_mount.h"
#include "testutil/status_matchers.h"
#include "testutil/temp_dir.h"

#include <gtest/gtest.h>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "checkpoint/record_format.h"

namespace hermes::checkpoint {
namespace {

using testing::ReflinkMount;
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

// Every file under `dir`, recursively.
size_t files_under(const std::string& dir) {
  size_t n = 0;
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return 0;
  while (dirent* e = ::readdir(d)) {
    std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    struct stat st {};
    std::string path = dir + "/" + name;
    if (::lstat(path.c_str(), &st) != 0) continue;
    n += S_ISDIR(st.st_mode) ? files_under(path) : 1;
  }
  ::closedir(d);
  return n;
}

// `size` bytes that no block of another file shares.
std::string distinct_bytes(size_t size, const std::string& seed) {
  std::string out;
  for (size_t i = 0; out.size() < size; ++i) out += fs::sha256_hex(seed + std::to_string(i));
  out.resize(size);
  return out;
}

TEST(BlobStore, OnAReflinkFileSystemAFileIsStoredAsAClone) {
  ReflinkMount mount;
  if (!mount.unavailable().empty()) GTEST_SKIP() << mount.unavailable();
  BlobStore store(mount.path() + "/store");
  std::string content = distinct_bytes(8u << 20, "clone");
  std::string file = mount.path() + "/big.bin";
  ASSERT_TRUE(fs::atomic_write(file, content).has_value());
  proc::UniqueFd fd(::open(file.c_str(), O_RDONLY | O_CLOEXEC));

  int64_t before = mount.used_bytes();
  auto cloned = store.put_clone(fd.get(), UINT64_MAX);
  ASSERT_TRUE(cloned.has_value());
  EXPECT_EQ(cloned->hash, fs::sha256_hex(content));
  EXPECT_EQ(cloned->size, content.size());
  EXPECT_LT(mount.used_bytes() - before, 1 << 20) << "8 MB stored by a copy, not a clone";
  EXPECT_EQ(store.get(cloned->hash).value_or(""), content);
  EXPECT_EQ(store.put_clone(fd.get(), UINT64_MAX)->hash, cloned->hash);
  EXPECT_EQ(files_under(store.dir() + "/objects"), 1u);

  // The clone shares blocks, not content: a write to the file leaves it.
  proc::UniqueFd writer(::open(file.c_str(), O_WRONLY | O_CLOEXEC));
  ASSERT_EQ(::pwrite(writer.get(), "changed", 7, 4096), 7);
  EXPECT_EQ(store.get(cloned->hash).value_or(""), content);

  // A delta may rest on a clone.
  std::string edited = content;
  edited.replace(100, 7, "changed");
  BlobStore::Base base{cloned->hash, content};
  auto delta = store.put(edited, &base);
  ASSERT_TRUE(delta.has_value());
  EXPECT_EQ(store.base_of(*delta), cloned->hash);
  EXPECT_EQ(store.get(*delta).value_or(""), edited);
}

TEST(BlobStore, WhereNoCloneIsPossibleNothingIsLeftBehind) {
  ReflinkMount mount;
  if (!mount.unavailable().empty()) GTEST_SKIP() << mount.unavailable();
  BlobStore store(mount.path() + "/store");
  TempDir elsewhere;  // another file system than the store's: no clone crosses
  const std::string content = distinct_bytes(BlobStore::kCloneMinBytes, "refused");
  std::string file = elsewhere.write("f.bin", content);
  proc::UniqueFd fd(::open(file.c_str(), O_RDONLY | O_CLOEXEC));
  EXPECT_FALSE(store.put_clone(fd.get(), UINT64_MAX).has_value());
  EXPECT_FALSE(store.put_clone(fd.get(), UINT64_MAX).has_value());
  EXPECT_EQ(files_under(store.dir() + "/objects"), 0u);

  // Over the size cap, or too small to be worth a clone: nothing kept either.
  std::string local = mount.path() + "/local.bin";
  ASSERT_TRUE(fs::atomic_write(local, content).has_value());
  proc::UniqueFd near(::open(local.c_str(), O_RDONLY | O_CLOEXEC));
  EXPECT_FALSE(store.put_clone(near.get(), content.size() - 1).has_value());
  std::string small = mount.path() + "/small.txt";
  ASSERT_TRUE(fs::atomic_write(small, "small\n").has_value());
  proc::UniqueFd tiny(::open(small.c_str(), O_RDONLY | O_CLOEXEC));
  EXPECT_FALSE(store.put_clone(tiny.get(), UINT64_MAX).has_value());
  EXPECT_EQ(files_under(store.dir() + "/objects"), 0u);
  EXPECT_TRUE(store.put_clone(near.get(), content.size()).has_value());
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
