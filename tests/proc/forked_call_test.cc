// SPDX-License-Identifier: MIT
// run_forked against children that misbehave as hostile input would make
// them: loop, flood the pipe, crash, throw, allocate without end.
#include "proc/forked_call.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace hermes::proc {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

ForkedLimits within(milliseconds ms, size_t output_cap = 1 << 20) {
  return {Clock::now() + ms, 0, output_cap};
}

[[noreturn]] void spin() {
  volatile unsigned long turns = 0;
  for (;;) turns = turns + 1;
}

TEST(RunForked, ReturnsWhatTheChildWrote) {
  std::string big(300000, 'x');  // more than a pipe holds at once
  auto out = run_forked(
      [&](ForkedOutput& o) {
        o.write("a");
        o.write(big);
      },
      within(milliseconds(5000)), {});
  ASSERT_TRUE(out.has_value()) << out.error().message;
  EXPECT_EQ(*out, "a" + big);
}

// The server's stdio may be the MCP stream: a child that writes to fd 1 or
// reads fd 0 must reach /dev/null, not the stream.
TEST(RunForked, TheChildCannotTouchTheServersStdio) {
  int pipe_fds[2];
  ASSERT_EQ(::pipe2(pipe_fds, O_CLOEXEC | O_NONBLOCK), 0);
  int saved_stdout = ::dup(1);
  ASSERT_GE(saved_stdout, 0);
  ASSERT_EQ(::dup2(pipe_fds[1], 1), 1);
  auto out = run_forked(
      [](ForkedOutput& o) {
        ssize_t wrote = ::write(1, "leak", 4);
        char c;
        ssize_t got = ::read(0, &c, 1);
        o.write(std::to_string(wrote) + "," + std::to_string(got));
      },
      within(milliseconds(5000)), {});
  ::dup2(saved_stdout, 1);
  ::close(saved_stdout);
  ::close(pipe_fds[1]);
  char buf[8];
  EXPECT_EQ(::read(pipe_fds[0], buf, sizeof buf), 0) << "the child wrote to the server's stdout";
  ::close(pipe_fds[0]);
  ASSERT_TRUE(out.has_value()) << out.error().message;
  EXPECT_EQ(*out, "4,0") << "writes vanish and reads see end of file";
}

TEST(RunForked, TheDeadlineKillsALoopingChild) {
  auto start = Clock::now();
  auto out = run_forked([](ForkedOutput&) { spin(); }, within(milliseconds(200)), {});
  ASSERT_FALSE(out.has_value());
  EXPECT_EQ(out.error().code, ErrorCode::kTimeout);
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(3));
}

TEST(RunForked, EndlessOutputIsCutAtTheCap) {
  auto out = run_forked(
      [](ForkedOutput& o) {
        std::string chunk(65536, 'y');
        while (o.write(chunk)) {
        }
      },
      within(milliseconds(20000), 1 << 20), {});
  ASSERT_FALSE(out.has_value());
  EXPECT_EQ(out.error().code, ErrorCode::kTooLarge);
  EXPECT_EQ(out.error().message, "output over 1048576 bytes");
}

TEST(RunForked, ACrashIsReportedWithItsSignal) {
  auto out = run_forked([](ForkedOutput&) { ::raise(SIGSEGV); }, within(milliseconds(5000)), {});
  ASSERT_FALSE(out.has_value());
  EXPECT_EQ(out.error().code, ErrorCode::kIo);
  EXPECT_EQ(out.error().message, "was killed by signal 11 (SIGSEGV)");
  auto aborted = run_forked([](ForkedOutput&) { std::abort(); }, within(milliseconds(5000)), {});
  ASSERT_FALSE(aborted.has_value());
  EXPECT_EQ(aborted.error().message, "was killed by signal 6 (SIGABRT)");
}

TEST(RunForked, AThrowIsAFailureNotAnAnswer) {
  auto out = run_forked(
      [](ForkedOutput& o) {
        o.write("half");
        throw std::runtime_error("boom");
      },
      within(milliseconds(5000)), {});
  ASSERT_FALSE(out.has_value());
  EXPECT_EQ(out.error().message, "threw an exception");
}

TEST(RunForked, MemoryIsCappedWhereTheBuildAllows) {
  if (!kMemoryCapWorks) GTEST_SKIP() << "no address-space cap under a sanitizer";
  ForkedLimits limits = within(milliseconds(20000));
  limits.memory_growth = 64u << 20;
  auto out = run_forked(
      [](ForkedOutput& o) {
        std::vector<char> hog(size_t{1} << 30, 'z');
        o.write(std::string_view(hog.data(), 1));
      },
      limits, {});
  ASSERT_FALSE(out.has_value());
  EXPECT_EQ(out.error().code, ErrorCode::kTooLarge);
  EXPECT_EQ(out.error().message, "out of memory");
}

// The child announces itself through a FIFO (it keeps no inherited
// descriptor), then loops; the cancel must end it at once.
TEST(RunForked, CancellationKillsTheChild) {
  std::string fifo = ::testing::TempDir() + "forked_call_fifo_" + std::to_string(::getpid());
  ::unlink(fifo.c_str());
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::stop_source source;
  std::jthread canceller([&] {
    int fd = ::open(fifo.c_str(), O_RDONLY);  // blocks until the child opens it
    char c;
    [[maybe_unused]] ssize_t n = ::read(fd, &c, 1);
    ::close(fd);
    source.request_stop();
  });
  auto start = Clock::now();
  auto out = run_forked(
      [&](ForkedOutput&) {
        int fd = ::open(fifo.c_str(), O_WRONLY);
        [[maybe_unused]] ssize_t n = ::write(fd, "!", 1);
        spin();
      },
      within(milliseconds(20000)), source.get_token());
  ::unlink(fifo.c_str());
  ASSERT_FALSE(out.has_value());
  EXPECT_EQ(out.error().code, ErrorCode::kCancelled);
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(5));
}

TEST(RunForked, NothingStartsPastTheDeadlineOrAfterCancel) {
  auto late = run_forked([](ForkedOutput&) { std::abort(); }, within(milliseconds(-1)), {});
  ASSERT_FALSE(late.has_value());
  EXPECT_EQ(late.error().code, ErrorCode::kTimeout);
  std::stop_source source;
  source.request_stop();
  auto cancelled = run_forked([](ForkedOutput&) { std::abort(); }, within(milliseconds(5000)),
                              source.get_token());
  ASSERT_FALSE(cancelled.has_value());
  EXPECT_EQ(cancelled.error().code, ErrorCode::kCancelled);
}

}  // namespace
}  // namespace hermes::proc
