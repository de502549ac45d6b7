// SPDX-License-Identifier: MIT
#include "proc/spawn.h"

#include "proc/proc_test_util.h"
#include "proc/run.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>

namespace hermes::proc {
namespace {

std::string run_capture(SpawnOptions options, ExitStatus* status = nullptr) {
  auto child = spawn(options);
  EXPECT_TRUE(child.has_value()) << child.error().message;
  std::string out;
  RunOutcome r = run_bounded(*child, {}, {}, [&](std::string_view b) { out += b; });
  if (status) *status = r.status;
  return out;
}

TEST(Spawn, MergesStdoutAndStderr) {
  ExitStatus st;
  std::string out = run_capture({.argv = {"sh", "-c", "echo out; echo err >&2; exit 3"}}, &st);
  EXPECT_EQ(out, "out\nerr\n");
  EXPECT_EQ(st.code, 3);
}

TEST(Spawn, StderrToItsOwnFdWhenAsked) {
  int err[2];
  ASSERT_EQ(::pipe2(err, O_CLOEXEC), 0);
  std::string out =
      run_capture({.argv = {"sh", "-c", "echo out; echo err >&2"}, .stderr_fd = err[1]});
  ::close(err[1]);
  char buf[64] = {};
  ssize_t n = ::read(err[0], buf, sizeof buf);
  ::close(err[0]);
  EXPECT_EQ(out, "out\n");
  EXPECT_EQ(std::string(buf, n > 0 ? static_cast<size_t>(n) : 0), "err\n");
}

TEST(Spawn, ProgramRunsUnderTheArgvZeroItIsGiven) {
  std::string out = run_capture({.argv = {"renamed", "-c", "echo $0"}, .program = "/bin/sh"});
  EXPECT_EQ(out, "renamed\n");
}

// Without a new session the child leads its own group inside ours.
TEST(Spawn, GroupWithoutANewSession) {
  std::string out =
      run_capture({.argv = {"sh", "-c", "ps -o sid=,pgid= -p $$; echo $$"}, .new_session = false});
  int sid = 0, pgid = 0, pid = 0;
  ASSERT_EQ(std::sscanf(out.c_str(), "%d %d %d", &sid, &pgid, &pid), 3) << out;
  EXPECT_EQ(pgid, pid);
  EXPECT_EQ(sid, ::getsid(0));
  std::string own = run_capture({.argv = {"sh", "-c", "ps -o sid= -p $$; echo $$"}});
  EXPECT_EQ(std::sscanf(own.c_str(), "%d %d", &sid, &pid), 2) << own;
  EXPECT_EQ(sid, pid);
}

TEST(Spawn, OwnsItsProcessGroup) {
  std::string out = run_capture({.argv = {"sh", "-c", "ps -o pgid= -p $$; echo $$"}});
  auto nl = out.find('\n');
  ASSERT_NE(nl, std::string::npos);
  EXPECT_EQ(std::stoi(out.substr(0, nl)), std::stoi(out.substr(nl + 1)));
}

TEST(Spawn, UsesCwdAndEnv) {
  std::string out = run_capture(
      {.argv = {"/bin/sh", "-c", "pwd; echo $FOO"}, .env = {{"FOO=bar"}}, .cwd = "/tmp"});
  EXPECT_EQ(out, "/tmp\nbar\n");
}

TEST(Spawn, MissingProgramIsNotFound) {
  auto child = spawn({.argv = {"definitely-not-a-program-xyz"}});
  ASSERT_FALSE(child.has_value());
  EXPECT_EQ(child.error().code, ErrorCode::kNotFound);
}

TEST(Spawn, StdinIsDevNullByDefault) {
  EXPECT_EQ(run_capture({.argv = {"sh", "-c", "cat; echo done"}}), "done\n");
}

TEST(Spawn, StdinPipeWriteAndClose) {
  auto child = spawn({.argv = {"cat"}, .stdin_mode = StdinMode::kPipe});
  ASSERT_TRUE(child.has_value());
  ASSERT_TRUE(child->write_stdin("hello\n").has_value());
  child->close_stdin();
  std::string out;
  run_bounded(*child, {}, {}, [&](std::string_view b) { out += b; });
  EXPECT_EQ(out, "hello\n");
  EXPECT_FALSE(child->write_stdin("x").has_value());
}

TEST(Spawn, PtyIsATerminal) {
  ExitStatus st;
  std::string out = run_capture(
      {.argv = {"sh", "-c", "test -t 0 && test -t 1 && stty size"}, .terminal = TerminalMode::kPty},
      &st);
  EXPECT_EQ(st.code, 0);
  EXPECT_NE(out.find("30 120"), std::string::npos) << out;
}

TEST(Spawn, SignalDeathIsNegative) {
  ExitStatus st;
  run_capture({.argv = {"sh", "-c", "kill -9 $$"}}, &st);
  EXPECT_EQ(st.code, -SIGKILL);
  EXPECT_TRUE(st.signaled());
}

TEST(Spawn, DestructorKillsTheGroup) {
  pid_t grandchild = 0;
  {
    auto child = spawn({.argv = {"sh", "-c", "sleep 30 & echo $!; wait"}});
    ASSERT_TRUE(child.has_value());
    std::string out;
    while (out.find('\n') == std::string::npos) {
      char buf[64];
      ssize_t n = ::read(child->output_fd(), buf, sizeof buf);
      if (n > 0) out.append(buf, static_cast<size_t>(n));
    }
    grandchild = std::stoi(out);
  }
  // SIGKILL delivery is asynchronous; give it a moment.
  for (int i = 0; i < 200 && testing::is_running(grandchild); ++i) ::usleep(5000);
  EXPECT_FALSE(testing::is_running(grandchild));
}

}  // namespace
}  // namespace hermes::proc
