// SPDX-License-Identifier: MIT
// run_bash on every backend: output, exit codes, stdin, large output in both
// directions, stderr kept apart, login shells, timeouts and cancellation.
#include "backend/backend_test_util.h"

#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <stop_token>
#include <thread>

namespace hermes::testing {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

class RunBashTest : public ::testing::TestWithParam<BackendKind> {
 protected:
  void SetUp() override {
    std::string why = unavailable_reason(GetParam());
    if (!why.empty()) GTEST_SKIP() << why;
    target_ = start_backend(backend_yaml(GetParam(), work_.path()));
    ASSERT_TRUE(target_->started.has_value()) << target_->started.error().message;
  }
  backend::Backend& backend() { return *target_->backend; }

  TempDir work_;
  std::unique_ptr<StartedBackend> target_;
};

TEST_P(RunBashTest, OutputAndExitZero) {
  auto r = run(backend(), "echo hello; echo world");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->end, proc::RunEnd::kExited);
  EXPECT_EQ(r->exit_code, 0);
  EXPECT_EQ(r->output, "hello\nworld\n");
}

TEST_P(RunBashTest, ExitCodesPassThrough) {
  for (int code : {1, 2, 7, 42, 127}) {
    auto r = run(backend(), "exit " + std::to_string(code));
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->exit_code, code);
  }
  auto missing = run(backend(), "no-such-command-hermes");
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->exit_code, 127);
  EXPECT_NE(missing->output.find("not found"), std::string::npos) << missing->output;
}

TEST_P(RunBashTest, StdinIsFedAndClosed) {
  auto r = run(backend(), "cat; echo '<eof>'", seconds(20), "line one\nline two\n");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->output, "line one\nline two\n<eof>\n");
  auto none = run(backend(), "cat; echo done");
  ASSERT_TRUE(none);
  EXPECT_EQ(none->output, "done\n");  // no stdin: /dev/null, not a hang
}

TEST_P(RunBashTest, LargeStdinArrivesWhole) {
  std::string data(3 << 20, 'x');
  auto r = run(backend(), "wc -c", seconds(30), data);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(std::stoul(r->output), data.size());
}

TEST_P(RunBashTest, LargeOutputArrivesWhole) {
  auto r = run(backend(), "head -c 5000000 /dev/zero | tr '\\0' a; echo; echo tail", seconds(30));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->output.size(), 5000000u + 1 + 5);
  EXPECT_TRUE(r->output.ends_with("a\ntail\n"));
}

TEST_P(RunBashTest, StderrKeptApartWhenAsked) {
  auto r = backend::run_bash_captured(
      backend(), {.script = "echo out; echo err >&2; exit 3", .separate_stderr = true}, {});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->output, "out\n");
  EXPECT_EQ(r->stderr_text, "err\n");
  EXPECT_EQ(r->exit_code, 3);
  auto merged = run(backend(), "echo out; echo err >&2");
  ASSERT_TRUE(merged);
  EXPECT_EQ(merged->output, "out\nerr\n");
}

TEST_P(RunBashTest, MergedOutputKeepsTheOrderWritten) {
  auto r = run(backend(), "for i in 1 2 3 4 5 6 7 8; do echo o$i; echo e$i >&2; done");
  ASSERT_TRUE(r) << r.error().message;
  std::string expected;
  for (int i = 1; i <= 8; ++i)
    expected += "o" + std::to_string(i) + "\ne" + std::to_string(i) + "\n";
  EXPECT_EQ(r->output, expected);
}

TEST_P(RunBashTest, LoginShellWhenAsked) {
  auto login = backend::run_bash_captured(
      backend(), {.script = "shopt -q login_shell && echo login || echo plain", .login = true}, {});
  ASSERT_TRUE(login) << login.error().message;
  EXPECT_TRUE(login->output.ends_with("login\n")) << login->output;
  auto plain = run(backend(), "shopt -q login_shell && echo login || echo plain");
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->output, "plain\n");
}

TEST_P(RunBashTest, TimeoutKillsTheCommand) {
  auto start = std::chrono::steady_clock::now();
  auto r = run(backend(), "echo begun; sleep 30; echo never", milliseconds(700));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->end, proc::RunEnd::kTimedOut);
  EXPECT_EQ(r->output.find("never"), std::string::npos);
  EXPECT_LT(seconds_since(start), 8.0);
}

TEST_P(RunBashTest, CancellationStopsTheCommand) {
  std::stop_source stop;
  std::string marker = work_.file("started");
  std::jthread canceller([&] {
    if (wait_for_file(marker)) stop.request_stop();
  });
  auto start = std::chrono::steady_clock::now();
  auto r = backend::run_bash_captured(
      backend(), {.script = "touch " + marker + "; sleep 30; echo never", .timeout = seconds(25)},
      stop.get_token());
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->end, proc::RunEnd::kCancelled);
  EXPECT_LT(seconds_since(start), 10.0);
}

TEST_P(RunBashTest, StreamsLongOutputBeforeExit) {
  // Past the hold-back the output reaches the callback while the command runs.
  std::string marker = work_.file("streamed");
  std::atomic<bool> got_before_exit = false;
  size_t total = 0;
  auto r = backend::run_bash(
      backend(),
      {.script = "head -c 200000 /dev/zero; while [ ! -e " + marker + " ]; do sleep 0.05; done",
       .timeout = seconds(20)},
      {}, [&](std::string_view bytes) {
        total += bytes.size();
        if (total >= 200000 && !got_before_exit) {
          got_before_exit = true;
          std::ofstream{marker};
        }
      });
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(got_before_exit);
  EXPECT_EQ(r->end, proc::RunEnd::kExited);
  EXPECT_EQ(total, 200000u);
}

TEST_P(RunBashTest, HomeAndDefaultCwdAreKnown) {
  EXPECT_FALSE(backend().home().empty());
  auto r = run(backend(), "cd ~ && pwd");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->output, backend().home() + "\n");
}

INSTANTIATE_TEST_SUITE_P(Backends, RunBashTest,
                         ::testing::Values(BackendKind::kLocal, BackendKind::kSsh,
                                           BackendKind::kSandbox, BackendKind::kDocker),
                         [](const auto& p) { return kind_name(p.param); });

}  // namespace
}  // namespace hermes::testing
