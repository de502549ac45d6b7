// SPDX-License-Identifier: MIT
// A workspace's own objects in one file: records read back exactly, a
// record named by offset survives the pruning of the record it named, and
// a record a crash cut short is neither read nor kept in the way.
#include "checkpoint/own_pack.h"

#include "fs/atomic_write.h"
#include "testutil/temp_dir.h"

#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "checkpoint/blob_store.h"

namespace hermes::checkpoint {
namespace {

using testing::TempDir;

// A chain of reverse deltas as holds leave it: version i is a delta
// against version i + 1.
struct Chain {
  std::vector<std::string> hashes;
  std::vector<std::string> objects;
};

Chain reverse_chain(int length) {
  std::vector<std::string> versions;
  std::string text(4000, 'x');
  for (int i = 0; i <= length; ++i) {
    text.replace(static_cast<size_t>(i) * 31 % 3900, 8, "v" + std::to_string(1000000 + i));
    versions.push_back(text);
  }
  Chain chain;
  for (int i = 0; i < length; ++i) {
    std::string next = fs::sha256_hex(versions[i + 1]);
    chain.hashes.push_back(fs::sha256_hex(versions[i]));
    chain.objects.push_back(delta_object(versions[i], {next, versions[i + 1]}, 1));
    EXPECT_FALSE(chain.objects.back().empty());
  }
  return chain;
}

// Appends the first `count` records of `chain` to the pack at `path`.
void append_records(const std::string& path, const Chain& chain, size_t count) {
  OwnPack pack(path);
  for (size_t i = 0; i < count; ++i) {
    ASSERT_TRUE(pack.append(chain.hashes[i], chain.objects[i]).has_value());
  }
}

uint64_t file_size(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

TEST(OwnPack, RecordsReadBackAndAChainCostsOneHashAnEdit) {
  TempDir dir;
  std::string path = dir.path() + "/own.pack";
  Chain chain = reverse_chain(20);
  append_records(path, chain, chain.hashes.size());
  uint64_t object_bytes = 0;
  for (const std::string& object : chain.objects) object_bytes += object.size();
  OwnPack pack(path);
  for (size_t i = 0; i < chain.hashes.size(); ++i) {
    EXPECT_EQ(pack.read(chain.hashes[i]).value_or(""), chain.objects[i]);
  }
  EXPECT_EQ(pack.hashes().size(), 20u);
  // Every record after the first names its hash by offset: a few bytes,
  // not 32.
  EXPECT_LT(file_size(path), object_bytes + 32 + 20 * 6);
}

TEST(OwnPack, PruningKeepsARecordWhoseNamerIsDropped) {
  TempDir dir;
  std::string path = dir.path() + "/own.pack";
  Chain chain = reverse_chain(6);
  append_records(path, chain, chain.hashes.size());
  OwnPack pack(path);
  // Records 1..5 are named by the delta before them; record 0, 2 and 4 go.
  ASSERT_TRUE(pack.keep_only({chain.hashes[1], chain.hashes[3], chain.hashes[5]}).has_value());
  OwnPack again(path);
  EXPECT_EQ(again.hashes().size(), 3u);
  for (size_t i : {1u, 3u, 5u})
    EXPECT_EQ(again.read(chain.hashes[i]).value_or(""), chain.objects[i]);
  EXPECT_FALSE(again.has(chain.hashes[0]));
  ASSERT_TRUE(again.keep_only({}).has_value());
  EXPECT_NE(::access(path.c_str(), F_OK), 0);
}

TEST(OwnPack, ARecordCutShortIsIgnoredAndWrittenOver) {
  TempDir dir;
  std::string path = dir.path() + "/own.pack";
  Chain chain = reverse_chain(3);
  append_records(path, chain, 2);
  uint64_t whole = file_size(path);
  ASSERT_EQ(::truncate(path.c_str(), static_cast<off_t>(whole - 5)), 0);
  OwnPack cut(path);
  EXPECT_TRUE(cut.has(chain.hashes[0]));
  EXPECT_FALSE(cut.has(chain.hashes[1]));
  ASSERT_TRUE(cut.append(chain.hashes[2], chain.objects[2]).has_value());
  OwnPack after(path);
  EXPECT_EQ(after.read(chain.hashes[0]).value_or(""), chain.objects[0]);
  EXPECT_EQ(after.read(chain.hashes[2]).value_or(""), chain.objects[2]);
  EXPECT_EQ(after.hashes().size(), 2u);
}

// A pack that could not be read (out of file descriptors here) is an
// error, never an empty pack that pruning rewrites or an append truncates.
TEST(OwnPack, AFailedReadIsNeverAnEmptyPack) {
  TempDir dir;
  std::string path = dir.path() + "/own.pack";
  Chain chain = reverse_chain(2);
  append_records(path, chain, 1);
  uint64_t size = file_size(path);
  OwnPack starved(path);
  struct rlimit was {};
  ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &was), 0);
  int next_fd = ::dup(0);
  ASSERT_GE(next_fd, 0);
  ::close(next_fd);
  struct rlimit none = was;
  none.rlim_cur = static_cast<rlim_t>(next_fd);  // no descriptor left to open
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &none), 0);
  Status pruned = starved.keep_only({});
  Status appended = starved.append(chain.hashes[1], chain.objects[1]);
  ::setrlimit(RLIMIT_NOFILE, &was);
  EXPECT_FALSE(pruned.has_value());
  EXPECT_FALSE(appended.has_value());
  EXPECT_EQ(file_size(path), size);
  EXPECT_TRUE(OwnPack(path).has(chain.hashes[0]));
}

TEST(OwnPack, GarbageReadsAsNoRecords) {
  TempDir dir;
  std::string path = dir.path() + "/own.pack";
  for (std::string garbage : {std::string("B\x05\x01x"), std::string("H"), std::string("\xff\xff"),
                              std::string("B\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80")}) {
    dir.write("own.pack", garbage);
    OwnPack pack(path);
    EXPECT_TRUE(pack.hashes().empty());
  }
}

}  // namespace
}  // namespace hermes::checkpoint
