// SPDX-License-Identifier: MIT
// The native read-side FileSystem: stat kinds, pread, listing, links, and a
// FIFO that opens without blocking.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>

#include "fs/file_system.h"
#include "testutil/temp_dir.h"

namespace hermes {
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

}  // namespace
}  // namespace hermes
