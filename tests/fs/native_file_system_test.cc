// SPDX-License-Identifier: MIT
// The native read-side FileSystem: stat kinds, pread, listing, links, and a
// FIFO that opens without blocking.
#include "fs/file_system.h"
#include "testutil/temp_dir.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

namespace hermes::fs {
namespace {

TEST(NativeFileSystem, StatPreadAndInfo) {
  testing::TempDir dir;
  std::string path = dir.write("a.txt", "hello world");
  const FileSystem& fs = native_file_system();
  auto info = fs.stat(path);
  ASSERT_TRUE(info);
  EXPECT_EQ(info->type, FileType::kRegular);
  EXPECT_EQ(info->size, 11u);
  auto file = fs.open_read(path);
  ASSERT_TRUE(file);
  char buf[5];
  auto n = (*file)->pread(buf, sizeof buf, 6);
  ASSERT_TRUE(n);
  EXPECT_EQ(std::string(buf, *n), "world");
  EXPECT_EQ(*(*file)->pread(buf, sizeof buf, 11), 0u);
  EXPECT_EQ(*(*file)->info(), *info);
}

TEST(NativeFileSystem, ErrorsCarryCodes) {
  const FileSystem& fs = native_file_system();
  auto missing = fs.open_read("/nonexistent/x");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ErrorCode::kNotFound);
  EXPECT_FALSE(fs.stat("/nonexistent/x"));
}

TEST(NativeFileSystem, ListLinksAndFifo) {
  testing::TempDir dir;
  dir.write("b", "");
  dir.write("a", "");
  std::filesystem::create_symlink("a", dir.file("link"));
  const FileSystem& fs = native_file_system();
  auto names = fs.list_dir(dir.path());
  ASSERT_TRUE(names);
  std::sort(names->begin(), names->end());
  EXPECT_EQ(*names, (std::vector<std::string>{"a", "b", "link"}));
  EXPECT_EQ(fs.lstat(dir.file("link"))->type, FileType::kSymlink);
  EXPECT_EQ(*fs.read_link(dir.file("link")), "a");
  ASSERT_EQ(::mkfifo(dir.file("fifo").c_str(), 0600), 0);
  EXPECT_EQ(fs.stat(dir.file("fifo"))->type, FileType::kFifo);
  auto fifo = fs.open_read(dir.file("fifo"));  // O_NONBLOCK: returns at once
  EXPECT_TRUE(fifo);
  EXPECT_EQ(fs.stat(dir.path())->type, FileType::kDirectory);
}

// read_all holds a file whole: what could block or fill the memory is
// refused from fstat, before a byte is read.
TEST(NativeFileSystem, ReadAllRefusesWhatItCannotHoldWhole) {
  testing::TempDir dir;
  const FileSystem& fs = native_file_system();
  ASSERT_EQ(::mkfifo(dir.file("fifo").c_str(), 0600), 0);
  auto fifo = fs.read_all(dir.file("fifo"));
  ASSERT_FALSE(fifo);
  EXPECT_EQ(fifo.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(fifo.error().message,
            "'" + dir.file("fifo") + "' is a FIFO (named pipe), not a regular file");
  auto device = fs.read_all("/dev/zero");
  ASSERT_FALSE(device);
  EXPECT_NE(device.error().message.find("a character device"), std::string::npos);
  auto directory = fs.read_all(dir.path());
  ASSERT_FALSE(directory);
  EXPECT_NE(directory.error().message.find("a directory"), std::string::npos);
  std::string big = dir.write("big", "");
  ASSERT_EQ(::truncate(big.c_str(), static_cast<off_t>(kMaxWholeFileBytes + 1)), 0);
  auto oversized = fs.read_all(big);
  ASSERT_FALSE(oversized);
  EXPECT_EQ(oversized.error().code, ErrorCode::kTooLarge);
  ASSERT_EQ(::truncate(big.c_str(), 3), 0);
  EXPECT_EQ(*fs.read_all(big), std::string(3, '\0'));
}

}  // namespace
}  // namespace hermes::fs
