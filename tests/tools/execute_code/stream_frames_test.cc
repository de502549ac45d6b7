// SPDX-License-Identifier: MIT
// The stream kernel's framing (stream_frames.h): frames cut at any byte
// boundary come out whole, and a header that is not one breaks the stream.
#include "tools/execute_code/stream_frames.h"

#include <gtest/gtest.h>

namespace hermes::testing {
namespace {

using execute_code::encode_frame;
using execute_code::FrameReader;

TEST(StreamFrames, FramesSplitAnywhereComeOutWhole) {
  std::string bytes = encode_frame("out", "hello\nworld") + encode_frame("done", "ok") +
                      encode_frame("image", std::string("\0\x89PNG", 5));
  for (size_t cut = 0; cut <= bytes.size(); ++cut) {
    FrameReader reader(1 << 20);
    reader.append(std::string_view(bytes).substr(0, cut));
    std::vector<execute_code::Frame> got;
    while (auto frame = reader.next()) got.push_back(*frame);
    reader.append(std::string_view(bytes).substr(cut));
    while (auto frame = reader.next()) got.push_back(*frame);
    ASSERT_EQ(got.size(), 3u) << "cut at " << cut;
    EXPECT_EQ(got[0].kind, "out");
    EXPECT_EQ(got[0].data, "hello\nworld");
    EXPECT_EQ(got[1].kind, "done");
    EXPECT_EQ(got[1].data, "ok");
    EXPECT_EQ(got[2].data, std::string("\0\x89PNG", 5));
    EXPECT_FALSE(reader.broken());
  }
}

TEST(StreamFrames, AnEmptyFrameIsAFrame) {
  FrameReader reader(16);
  reader.append(encode_frame("interrupt", ""));
  auto frame = reader.next();
  ASSERT_TRUE(frame);
  EXPECT_EQ(frame->kind, "interrupt");
  EXPECT_EQ(frame->data, "");
}

TEST(StreamFrames, GarbageAndOversizedFramesBreakTheStream) {
  for (const std::string& bad : std::vector<std::string>{"hello world\n", "out -1\nx", "out 17\n",
                                                         " 3\nabc", std::string(100, 'x')}) {
    FrameReader reader(16);
    reader.append(bad);
    EXPECT_FALSE(reader.next()) << bad;
    EXPECT_TRUE(reader.broken()) << bad;
  }
}

}  // namespace
}  // namespace hermes::testing
