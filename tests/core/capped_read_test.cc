// SPDX-License-Identifier: MIT
// Reads of the server's own files pointed at what a hostile tree offers:
// a FIFO with no writer, an endless device, a huge sparse file, a directory.
#include "core/capped_read.h"

#include "testutil/temp_dir.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace hermes {
namespace {

TEST(CappedRead, ReadsARegularFile) {
  testing::TempDir dir;
  auto text = read_capped_file(dir.write("a.json", "{\"k\": 1}"), 1024);
  ASSERT_TRUE(text) << text.error().message;
  EXPECT_EQ(*text, "{\"k\": 1}");
}

TEST(CappedRead, MissingIsNotFound) {
  testing::TempDir dir;
  auto text = read_capped_file(dir.file("none"), 1024);
  ASSERT_FALSE(text);
  EXPECT_EQ(text.error().code, ErrorCode::kNotFound);
}

TEST(CappedRead, FifoIsRefusedAtOnce) {
  testing::TempDir dir;
  ASSERT_EQ(::mkfifo(dir.file("fifo").c_str(), 0600), 0);
  auto text = read_capped_file(dir.file("fifo"), 1024);
  ASSERT_FALSE(text);
  EXPECT_EQ(text.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(text.error().message.find("not a regular file"), std::string::npos);
}

TEST(CappedRead, DevicesAndDirectoriesAreRefused) {
  testing::TempDir dir;
  for (const std::string& path : {std::string("/dev/zero"), dir.path()}) {
    auto text = read_capped_file(path, 1024);
    ASSERT_FALSE(text) << path;
    EXPECT_NE(text.error().message.find("not a regular file"), std::string::npos) << path;
  }
}

TEST(CappedRead, OversizedFileIsRefusedBeforeReading) {
  testing::TempDir dir;
  std::string path = dir.write("big", "");
  ASSERT_EQ(::truncate(path.c_str(), off_t{2} << 30), 0);  // sparse: no disk used
  auto text = read_capped_file(path, 1 << 20);
  ASSERT_FALSE(text);
  EXPECT_EQ(text.error().code, ErrorCode::kTooLarge);
}

TEST(CappedRead, StopRequestedCancels) {
  testing::TempDir dir;
  std::stop_source stop;
  stop.request_stop();
  auto text = read_capped_file(dir.write("a", "x"), 1024, stop.get_token());
  ASSERT_FALSE(text);
  EXPECT_EQ(text.error().code, ErrorCode::kCancelled);
}

}  // namespace
}  // namespace hermes
