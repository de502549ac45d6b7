// SPDX-License-Identifier: MIT
// JSON files the server reads for itself, pointed at what a hostile tree
// offers: nesting past the bound, overflowing numbers, garbage, a FIFO.
#include "json/capped_json.h"

#include "testutil/temp_dir.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <string>

namespace hermes {
namespace {

TEST(CappedJson, ParsesWithinTheCaps) {
  testing::TempDir dir;
  auto doc = read_capped_json(dir.write("a.json", "{\"k\": [1, 2]}"), 1024);
  ASSERT_TRUE(doc) << doc.error().message;
  EXPECT_EQ((*doc)["k"][1], 2);
}

TEST(CappedJson, HostileTextIsAnErrorNamingTheFile) {
  testing::TempDir dir;
  std::string deep = dir.write("deep.json", std::string(100000, '[') + std::string(100000, ']'));
  std::string huge_number = dir.write("num.json", "{\"at\": 1e400}");
  std::string garbage = dir.write("bad.json", "{not json");
  for (const std::string& path : {deep, huge_number, garbage}) {
    auto doc = read_capped_json(path, 1 << 20);
    ASSERT_FALSE(doc) << path;
    EXPECT_EQ(doc.error().code, ErrorCode::kInvalidArgument);
    EXPECT_TRUE(doc.error().message.starts_with(path + ": not valid JSON ("))
        << doc.error().message;
  }
  EXPECT_NE(read_capped_json(deep, 1 << 20).error().message.find("nesting"), std::string::npos);
}

TEST(CappedJson, FifoIsRefusedNotParsed) {
  testing::TempDir dir;
  ASSERT_EQ(::mkfifo(dir.file("fifo").c_str(), 0600), 0);
  auto doc = read_capped_json(dir.file("fifo"), 1024);
  ASSERT_FALSE(doc);
  EXPECT_NE(doc.error().message.find("not a regular file"), std::string::npos);
}

}  // namespace
}  // namespace hermes
