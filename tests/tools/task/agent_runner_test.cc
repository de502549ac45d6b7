// SPDX-License-Identifier: MIT
#include "tools/task/agent_runner.h"

#include "tools/task/task_fixture.h"

#include <gtest/gtest.h>

#include <signal.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace hermes::task {
namespace {

using testing::ScopedEnv;

// Processes of group `pgid` that are not zombies (a zombie is dead already;
// whether init reaps it is outside our control).
int live_group_members(pid_t pgid) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(entry.path() / "stat");
    std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    size_t close = stat.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream fields(stat.substr(close + 2));
    char state = 0;
    pid_t ppid = 0, group = 0;
    fields >> state >> ppid >> group;
    if (group == pgid && state != 'Z') ++count;
  }
  return count;
}

AgentRun stub_run(const std::string& stub, std::chrono::milliseconds timeout) {
  AgentRun run;
  run.argv = {stub, "chat", "-q", "hi"};
  run.timeout = timeout;
  run.kill_grace = std::chrono::milliseconds(200);
  return run;
}

TEST(ProcessRunner, SeparatesStdoutAndStderr) {
  hermes::testing::TempDir dir;
  std::string stub = testing::write_stub_agent(dir);
  ScopedEnv env;
  env.set("STUB_ANSWER", "the answer");
  env.set("STUB_STDERR", "a warning");
  env.set("STUB_SESSION", "20260811_115247_084e47");
  env.set("STUB_EXIT", "3");
  AgentResult r = make_process_runner()->run(stub_run(stub, std::chrono::seconds(10)), {});
  EXPECT_FALSE(r.spawn_failed);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.stdout_text, "the answer\n");
  EXPECT_EQ(r.stderr_text, "a warning\n\nsession_id: 20260811_115247_084e47\n");
}

TEST(ProcessRunner, MissingProgramIsSpawnFailure) {
  AgentRun run;
  run.argv = {"/nonexistent/hermes-agent-binary", "chat"};
  AgentResult r = make_process_runner()->run(run, {});
  EXPECT_TRUE(r.spawn_failed);
  EXPECT_EQ(r.spawn_errno, ENOENT);
  EXPECT_FALSE(r.exit_code);
}

TEST(ProcessRunner, TimeoutKillsAGroupThatIgnoresTerm) {
  hermes::testing::TempDir dir;
  std::string stub = testing::write_stub_agent(dir);
  ScopedEnv env;
  env.set("STUB_IGNORE_TERM", "1");
  env.set("STUB_DELAY", "30");
  env.set("STUB_PID_FILE", dir.file("pid"));
  auto started = std::chrono::steady_clock::now();
  AgentResult r = make_process_runner()->run(stub_run(stub, std::chrono::milliseconds(300)), {});
  auto took = std::chrono::steady_clock::now() - started;
  EXPECT_TRUE(r.timed_out);
  EXPECT_LT(took, std::chrono::seconds(5));
  pid_t pid = std::stoi(dir.read("pid"));
  // The stub led its own group; `sleep` (which also ignored TERM) dies too.
  // SIGKILL lands asynchronously, so allow the kernel a moment.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  while (live_group_members(pid) > 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(live_group_members(pid), 0);
}

TEST(ProcessRunner, StdoutIsBounded) {
  hermes::testing::TempDir dir;
  std::string stub = testing::write_stub_agent(dir);
  ScopedEnv env;
  env.set("STUB_ANSWER_BYTES", "300000");
  AgentRun run = stub_run(stub, std::chrono::seconds(10));
  run.max_stdout_bytes = 1000;
  AgentResult r = make_process_runner()->run(run, {});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.stdout_text.size(), 1000u);
  EXPECT_TRUE(r.stdout_truncated);
}

TEST(ProcessRunner, StopTokenCancelsTheRun) {
  hermes::testing::TempDir dir;
  std::string stub = testing::write_stub_agent(dir);
  ScopedEnv env;
  env.set("STUB_DELAY", "30");
  std::stop_source stop;
  stop.request_stop();
  AgentResult r =
      make_process_runner()->run(stub_run(stub, std::chrono::seconds(30)), stop.get_token());
  EXPECT_TRUE(r.cancelled);
  EXPECT_LT(r.duration_ms, 5000);
}

}  // namespace
}  // namespace hermes::task
