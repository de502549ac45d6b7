// SPDX-License-Identifier: MIT
#include "mcp/line_reader.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <ctime>
#include <string>
#include <thread>

namespace hermes::mcp {
namespace {

// Feeds `input` through a pipe from another thread and collects the results.
std::vector<std::pair<LineReader::Status, std::string>> read_all(const std::string& input,
                                                                 size_t max) {
  int fds[2];
  EXPECT_EQ(::pipe(fds), 0);
  std::thread writer([&] {
    size_t done = 0;
    while (done < input.size()) {
      ssize_t n = ::write(fds[1], input.data() + done, input.size() - done);
      if (n <= 0) break;
      done += static_cast<size_t>(n);
    }
    ::close(fds[1]);
  });
  LineReader reader(fds[0], max);
  std::vector<std::pair<LineReader::Status, std::string>> out;
  std::string line;
  LineReader::Status status;
  while ((status = reader.next(line)) != LineReader::Status::kEof) {
    out.emplace_back(status, status == LineReader::Status::kLine ? line : "");
  }
  writer.join();
  ::close(fds[0]);
  return out;
}

TEST(LineReader, SplitsLinesAndDropsCr) {
  auto out = read_all("a\r\nbb\nlast", 100);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].second, "a");
  EXPECT_EQ(out[1].second, "bb");
  EXPECT_EQ(out[2].second, "last");
}

TEST(LineReader, OversizedLineIsSkippedNotBuffered) {
  std::string big(300000, 'x');
  auto out = read_all("ok\n" + big + "\nafter\n", 1000);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].second, "ok");
  EXPECT_EQ(out[1].first, LineReader::Status::kTooLong);
  EXPECT_EQ(out[2].second, "after");
}

TEST(LineReader, TellsWhetherMoreInputIsAlreadyRead) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  LineReader reader(fds[0], 100);
  std::string line;
  ASSERT_EQ(::write(fds[1], "one\ntw", 6), 6);
  ASSERT_EQ(reader.next(line), LineReader::Status::kLine);
  EXPECT_TRUE(reader.has_buffered());  // the start of "two"
  ASSERT_EQ(::write(fds[1], "o\n", 2), 2);
  ASSERT_EQ(reader.next(line), LineReader::Status::kLine);
  EXPECT_EQ(line, "two");
  EXPECT_FALSE(reader.has_buffered());
  ::close(fds[1]);
  ::close(fds[0]);
}

// The reader polls for a while, then sleeps: a message that comes late is
// still read, and the wait before it costs little CPU.
TEST(LineReader, SpinsBrieflyThenSleepsUntilInputComes) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  LineReader reader(fds[0], 100, std::chrono::milliseconds(1));
  std::thread late([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ASSERT_EQ(::write(fds[1], "late\n", 5), 5);
  });
  timespec before{}, after{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &before);
  std::string line;
  ASSERT_EQ(reader.next(line), LineReader::Status::kLine);
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &after);
  late.join();
  EXPECT_EQ(line, "late");
  const double cpu_ms =
      (after.tv_sec - before.tv_sec) * 1e3 + (after.tv_nsec - before.tv_nsec) / 1e6;
  EXPECT_LT(cpu_ms, 50) << "the reader spun instead of sleeping";
  ::close(fds[1]);
  ::close(fds[0]);
}

}  // namespace
}  // namespace hermes::mcp
