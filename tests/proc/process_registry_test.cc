// SPDX-License-Identifier: MIT
#include "proc/process_registry.h"

#include "proc/proc_test_util.h"
#include "testutil/temp_dir.h"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>

namespace hermes::proc {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

struct Events {
  std::mutex mu;
  std::vector<ProcessEvent> list;
  EventSink sink() {
    return [this](const ProcessEvent& e) {
      std::lock_guard lock(mu);
      list.push_back(e);
    };
  }
  size_t count(ProcessEvent::Kind kind) {
    std::lock_guard lock(mu);
    size_t n = 0;
    for (const ProcessEvent& e : list) n += e.kind == kind;
    return n;
  }
};

StartRequest sh(const std::string& script, EventSink sink = {}) {
  return {.spawn = {.argv = {"sh", "-c", script}, .stdin_mode = StdinMode::kPipe},
          .command = script,
          .on_event = std::move(sink)};
}

TEST(ProcessRegistry, RollingBufferIsBounded) {
  ProcessRegistry reg({.buffer_chars = 1000});
  auto id = reg.start(sh("seq 1 100000"));
  ASSERT_TRUE(id.has_value());
  ASSERT_TRUE(reg.wait(*id, seconds(10), {}));
  auto snap = reg.snapshot(*id);
  EXPECT_EQ(snap->output.size(), 1000u);
  EXPECT_TRUE(snap->output.ends_with("99999\n100000\n"));
  EXPECT_EQ(snap->completion_reason, "exited");
}

TEST(ProcessRegistry, RollingBufferCountsCharactersNotBytes) {
  ProcessRegistry reg({.buffer_chars = 1000});
  // 3000 two-byte characters: the last 1000 of them (2000 bytes) are kept.
  auto id = reg.start(sh("i=0; while [ $i -lt 300 ]; do printf 'éééééééééé'; i=$((i+1)); done"));
  ASSERT_TRUE(id.has_value());
  ASSERT_TRUE(reg.wait(*id, seconds(10), {}));
  auto snap = reg.snapshot(*id);
  EXPECT_EQ(snap->output.size(), 2000u);
  EXPECT_TRUE(snap->output.starts_with("é"));
}

TEST(ProcessRegistry, CompletionEventUnlessOutputWasRead) {
  Events events;
  ProcessRegistry reg;
  StartRequest r = sh("echo done", events.sink());
  r.notify_on_complete = true;
  auto id = reg.start(std::move(r));
  ASSERT_TRUE(reg.wait(*id, seconds(10), {}));
  for (int i = 0; i < 100 && events.count(ProcessEvent::Kind::kCompletion) == 0; ++i)
    ::usleep(10000);
  EXPECT_EQ(events.count(ProcessEvent::Kind::kCompletion), 1u);
}

TEST(ProcessRegistry, WatchCooldownStrikesThenDisable) {
  Events events;
  ProcessRegistry reg({.watch_cooldown = seconds(60), .watch_strikes = 1});
  StartRequest r = sh("echo HIT 1; echo HIT 2; sleep 0.1; echo HIT 3", events.sink());
  r.watch_patterns = {"HIT"};
  auto id = reg.start(std::move(r));
  ASSERT_TRUE(reg.wait(*id, seconds(10), {}));
  // First match notified; the next ones fall in the cooldown window.
  EXPECT_EQ(events.count(ProcessEvent::Kind::kWatchMatch), 1u);
}

TEST(ProcessRegistry, GlobalBreakerMutesAChattySession) {
  Events events;
  ProcessRegistry reg({.watch_global_limit = 3});
  std::vector<std::string> ids;
  for (int i = 0; i < 5; ++i) {
    StartRequest r = sh("echo HIT", events.sink());
    r.watch_patterns = {"HIT"};
    ids.push_back(*reg.start(std::move(r)));
    ASSERT_TRUE(reg.wait(ids.back(), seconds(10), {}));
  }
  EXPECT_EQ(events.count(ProcessEvent::Kind::kWatchMatch), 3u);
}

TEST(ProcessRegistry, DestructorKillsRunningJobs) {
  pid_t pid;
  {
    ProcessRegistry reg;
    auto id = reg.start(sh("sleep 60"));
    pid = reg.snapshot(*id)->pid;
  }
  for (int i = 0; i < 100 && testing::is_running(pid); ++i) ::usleep(10000);
  EXPECT_FALSE(testing::is_running(pid));
}

// A daemon that cleans up on SIGTERM (removes its lock file, here writes a
// line) and writes `up` once its trap is set.
std::string daemon_script(const hermes::testing::TempDir& dir, const std::string& on_term) {
  return "(trap '" + on_term + "' TERM; echo up > " + dir.file("up") +
         "; while :; do sleep 0.05; done) >/dev/null 2>&1 &";
}

// At session end a daemon that a job left running gets SIGTERM and time to
// clean up, not SIGKILL at once.
TEST(ProcessRegistry, SessionEndLetsWhatAJobLeftRunningCleanUp) {
  hermes::testing::TempDir dir;
  ProcessRegistry reg;
  StartRequest r = sh(daemon_script(dir, "echo cleaned > " + dir.file("done") + "; exit 0"));
  r.spawn.whole_tree = true;
  r.kill_grace = seconds(10);
  auto id = reg.start(std::move(r));
  ASSERT_TRUE(id.has_value());
  ASSERT_TRUE(reg.wait(*id, seconds(10), {}));  // the job's own shell is done
  for (int i = 0; i < 1000 && dir.read("up").empty(); ++i) ::usleep(10000);
  ASSERT_EQ(dir.read("up"), "up\n");
  reg.end_all();
  EXPECT_EQ(dir.read("done"), "cleaned\n");
}

// process kill says whether SIGTERM ended the job or SIGKILL had to.
TEST(ProcessRegistry, KillSaysWhetherSigkillWasNeeded) {
  for (bool ignores_term : {false, true}) {
    hermes::testing::TempDir dir;
    ProcessRegistry reg;
    StartRequest r = sh(daemon_script(dir, ignores_term ? "" : "exit 0") + " wait");
    r.spawn.whole_tree = true;
    auto id = reg.start(std::move(r));
    ASSERT_TRUE(id.has_value());
    for (int i = 0; i < 1000 && dir.read("up").empty(); ++i) ::usleep(10000);
    ASSERT_EQ(dir.read("up"), "up\n");
    KillReport report = reg.kill(*id, milliseconds(300));
    EXPECT_EQ(report.forced, ignores_term) << ignores_term;
    EXPECT_TRUE(report.complete());
  }
}

TEST(ProcessRegistry, ResolvesPrefixes) {
  ProcessRegistry reg;
  auto id = reg.start(sh("true"));
  EXPECT_EQ(*reg.resolve(*id), *id);
  EXPECT_EQ(*reg.resolve(id->substr(0, 9)), *id);
  EXPECT_EQ(*reg.resolve(id->substr(5, 4)), *id);
  EXPECT_FALSE(reg.resolve("abc").has_value());  // under 4 hex chars
  EXPECT_FALSE(reg.resolve("proc_").has_value());
}

}  // namespace
}  // namespace hermes::proc
