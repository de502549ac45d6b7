// SPDX-License-Identifier: MIT
// The supervisor directly: exit codes, pipes, and tree killing.
#include "tools/execute_code/sandbox_process.h"

#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>

#include "core/strings.h"
#include "proc/output_capture.h"

namespace hermes::execute_code {
namespace {

LaunchSpec shell(const std::string& script) {
  return LaunchSpec{.program = "/bin/sh", .argv = {"/bin/sh", "-c", script},
                    .env = {"PATH=/usr/bin:/bin"}, .cwd = "/"};
}

// Reads stdout and the status until the supervisor finishes; returns the
// script's exit code. `on_code` runs once when it arrives.
int run_to_end(SandboxProcess& p, std::string& out, EndMode after_exit = EndMode::kKill) {
  std::optional<int> code;
  bool status_open = true, out_open = true;
  while (status_open || out_open) {
    pollfd fds[2] = {{status_open ? p.status_fd() : -1, POLLIN, 0},
                     {out_open ? p.stdout_fd() : -1, POLLIN, 0}};
    ::poll(fds, 2, 5000);
    if (fds[1].revents) {
      char buf[4096];
      ssize_t n = ::read(p.stdout_fd(), buf, sizeof buf);
      if (n > 0) out.append(buf, static_cast<size_t>(n));
      if (n == 0) out_open = false;
    }
    if (fds[0].revents) {
      bool had = code.has_value();
      status_open = p.read_status(code);
      if (code && !had) p.end_tree(after_exit);
    }
  }
  p.reap();
  return code.value_or(-1000);
}

TEST(SandboxProcess, ReportsExitCodeAndOutput) {
  auto p = SandboxProcess::launch(shell("echo hi; exit 7"));
  ASSERT_TRUE(p);
  std::string out;
  EXPECT_EQ(run_to_end(*p, out), 7);
  EXPECT_EQ(out, "hi\n");
}

TEST(SandboxProcess, SignalDeathIsNegative) {
  auto p = SandboxProcess::launch(shell("kill -9 $$"));
  ASSERT_TRUE(p);
  std::string out;
  EXPECT_EQ(run_to_end(*p, out), -9);
}

TEST(SandboxProcess, ExecFailureIs127WithAMessage) {
  LaunchSpec spec = shell("");
  spec.program = "/nonexistent/python";
  auto p = SandboxProcess::launch(spec);
  ASSERT_TRUE(p);
  std::string out;
  EXPECT_EQ(run_to_end(*p, out), 127);
  char buf[256];
  ssize_t n = ::read(p->stderr_fd(), buf, sizeof buf);
  ASSERT_GT(n, 0);
  EXPECT_NE(std::string(buf, static_cast<size_t>(n)).find("cannot start"), std::string::npos);
}

TEST(SandboxProcess, EscapedBackgroundProcessesDieWithTheTree) {
  // A grandchild in its own session holding stdout open, printing its pid.
  auto p = SandboxProcess::launch(shell("setsid sh -c 'echo $$; exec sleep 300' & wait"));
  ASSERT_TRUE(p);
  pollfd fd{p->stdout_fd(), POLLIN, 0};
  ASSERT_EQ(::poll(&fd, 1, 5000), 1);
  char buf[64];
  ssize_t n = ::read(p->stdout_fd(), buf, sizeof buf);
  ASSERT_GT(n, 0);
  auto pid = parse_int(std::string(buf, static_cast<size_t>(n)));
  ASSERT_TRUE(pid);
  ASSERT_EQ(::kill(static_cast<pid_t>(*pid), 0), 0);
  p->end_tree(EndMode::kTerminate);
  std::string rest;
  run_to_end(*p, rest);
  EXPECT_NE(::kill(static_cast<pid_t>(*pid), 0), 0);
}

TEST(SandboxProcess, DestructorKillsARunningTree) {
  pid_t pid = 0;
  {
    auto p = SandboxProcess::launch(shell("echo $$; exec sleep 300"));
    ASSERT_TRUE(p);
    pollfd fd{p->stdout_fd(), POLLIN, 0};
    ASSERT_EQ(::poll(&fd, 1, 5000), 1);
    char buf[64];
    ssize_t n = ::read(p->stdout_fd(), buf, sizeof buf);
    pid = static_cast<pid_t>(parse_int(std::string(buf, static_cast<size_t>(n))).value_or(0));
  }
  ASSERT_GT(pid, 0);
  EXPECT_NE(::kill(pid, 0), 0);
}

}  // namespace
}  // namespace hermes::execute_code
