// SPDX-License-Identifier: MIT
// terminal(background=true) + the process tool, and session teardown.
#include "proc/proc_test_util.h"
#include "tools/process/process.h"
#include "tools/terminal/terminal_harness.h"

#include <gtest/gtest.h>

#include <signal.h>

#include <chrono>
#include <mutex>
#include <thread>

namespace hermes::process {
namespace {

using testing::TerminalHarness;

class ProcessHarness : public TerminalHarness {
 public:
  explicit ProcessHarness(const std::string& yaml = "") : TerminalHarness(yaml) {
    register_process(registry());
  }
  std::string start(const std::string& command, Json extra = Json::object()) {
    extra["command"] = command;
    extra["background"] = true;
    Json r = call("terminal", extra);
    EXPECT_EQ(r["output"], "Background process started") << r.dump();
    return r.value("session_id", "");
  }
  Json process(const std::string& action, const std::string& id, Json extra = Json::object()) {
    extra["action"] = action;
    if (!id.empty()) extra["session_id"] = id;
    return call("process", extra);
  }
};

class RecordingClient final : public registry::ClientChannel {
 public:
  void notify(const std::string& method, const Json& params) override {
    std::lock_guard lock(mu);
    events.push_back({{"method", method}, {"params", params}});
  }
  bool supports_elicitation() const override { return false; }
  std::optional<Json> request(const std::string&, const Json&, std::chrono::milliseconds,
                              std::stop_token) override {
    return std::nullopt;
  }
  std::vector<Json> snapshot() {
    std::lock_guard lock(mu);
    return events;
  }
  std::mutex mu;
  std::vector<Json> events;
};

TEST(Background, StartPollWait) {
  ProcessHarness h;
  std::string id = h.start("echo out; sleep 0.2; echo more; exit 3");
  EXPECT_EQ(id.rfind("proc_", 0), 0u);
  EXPECT_EQ(id.size(), 17u);
  Json w = h.process("wait", id, {{"timeout", 10}});
  EXPECT_EQ(w["status"], "exited");
  EXPECT_EQ(w["exit_code"], 3);
  EXPECT_EQ(w["output"], "out\nmore\n");
  Json p = h.process("poll", id);
  EXPECT_EQ(p["status"], "exited");
  EXPECT_EQ(p["completion_reason"], "exited");
}

TEST(Background, KillTheGroup) {
  ProcessHarness h;
  std::string id = h.start("sleep 60 | cat");
  Json k = h.process("kill", id);
  EXPECT_EQ(k["status"], "killed");
  EXPECT_EQ(k["termination_source"], "process.kill");
  EXPECT_EQ(k["stopped_by"], "SIGTERM");
  Json p = h.process("poll", id);
  EXPECT_EQ(p["status"], "exited");
  EXPECT_EQ(p["exit_code"], -15);
  EXPECT_FALSE(proc::testing::group_running(p["pid"].get<int>()));
  EXPECT_EQ(h.process("kill", id)["status"], "already_exited");
}

TEST(Background, StdinWriteSubmitClose) {
  ProcessHarness h;
  std::string id = h.start("cat");
  EXPECT_EQ(h.process("write", id, {{"data", "ab"}}),
            Json::parse(R"({"status":"ok","bytes_written":2})"));
  EXPECT_EQ(h.process("submit", id, {{"data", "c"}})["status"], "ok");
  EXPECT_EQ(h.process("close", id), Json::parse(R"({"status":"ok","message":"stdin closed"})"));
  Json w = h.process("wait", id, {{"timeout", 10}});
  EXPECT_EQ(w["output"], "abc\n");
  EXPECT_EQ(h.process("write", id, {{"data", "x"}}),
            Json::parse(R"({"status":"already_exited","error":"Process has already finished"})"));
}

TEST(Background, WriteToANonReaderTimesOutWithoutWedging) {
  ProcessHarness h;
  std::string id = h.start("sleep 30");
  auto start = std::chrono::steady_clock::now();
  Json w = h.process("write", id, {{"data", std::string(4 << 20, 'x')}});
  EXPECT_EQ(w["status"], "error");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  EXPECT_EQ(h.process("poll", id)["status"], "running");
}

TEST(Background, LogPagination) {
  ProcessHarness h;
  std::string id = h.start("seq 1 10");
  h.process("wait", id, {{"timeout", 10}});
  Json head = h.process("log", id, {{"offset", 0}, {"limit", 3}});
  EXPECT_EQ(head["output"], "1\n2\n3");
  EXPECT_EQ(head["total_lines"], 10);
  EXPECT_EQ(head["showing"], "3 lines");
  EXPECT_EQ(h.process("log", id, {{"limit", 2}})["output"], "9\n10");
}

TEST(Background, LookupAndErrors) {
  ProcessHarness h;
  std::string id = h.start("true");
  EXPECT_EQ(h.process("poll", id.substr(5, 6))["session_id"], id);  // bare hex prefix
  EXPECT_EQ(h.process("poll", "proc_zzzz"),
            Json::parse(R"({"status":"not_found","error":"No process with ID proc_zzzz"})"));
  EXPECT_EQ(h.process("poll", ""), Json::parse(R"({"error":"session_id is required for poll"})"));
  EXPECT_EQ(
      h.process("dance", id)["error"],
      "Unknown process action: dance. Use: list, poll, log, wait, kill, write, submit, close");
  EXPECT_EQ(h.process("wait", id, {{"timeout", -1}}),
            Json::parse(R"j({"status":"error","error":"timeout must be positive (got -1)"})j"));
  Json list = h.process("list", "");
  ASSERT_EQ(list["processes"].size(), 1u);
  EXPECT_EQ(list["processes"][0]["session_id"], id);
}

TEST(Background, ProcessManageIsAnAliasOfProcess) {
  ProcessHarness h;
  std::string id = h.start("true");
  Json list = h.call("process_manage", {{"action", "list"}});
  ASSERT_EQ(list["processes"].size(), 1u) << list.dump();
  EXPECT_EQ(list["processes"][0]["session_id"], id);
}

TEST(Background, LogOfALoudProcessStaysWithinTheBuffer) {
  ProcessHarness h;
  // ~590,000 characters of output: only the last 200,000 are kept.
  std::string id = h.start("seq 1 100000");
  h.process("wait", id, {{"timeout", 30}});
  Json log = h.process("log", id, {{"offset", 0}, {"limit", 1000000}});
  const std::string out = log["output"].get<std::string>();
  EXPECT_LE(out.size(), 200000u);
  EXPECT_GT(out.size(), 190000u);
  EXPECT_TRUE(out.ends_with("99999\n100000")) << out.substr(out.size() - 20);
}

TEST(Background, WaitTimeoutIsNotAnError) {
  ProcessHarness h;
  std::string id = h.start("echo hi; sleep 30");
  Json w = h.process("wait", id, {{"timeout", 1}});
  EXPECT_EQ(w["status"], "timeout");
  EXPECT_EQ(w["process_running"], true);
  EXPECT_NE(w["timeout_note"].get<std::string>().find("not an error"), std::string::npos);
}

TEST(Background, SessionEndKillsEverything) {
  int pid = 0;
  {
    ProcessHarness h;
    std::string id = h.start("sleep 60");
    pid = h.process("poll", id)["pid"];
    EXPECT_TRUE(proc::testing::is_running(pid));
  }
  for (int i = 0; i < 100 && proc::testing::is_running(pid); ++i) ::usleep(10'000);
  EXPECT_FALSE(proc::testing::is_running(pid));
}

TEST(Background, NotifyOnCompleteSendsALoggingNotification) {
  ProcessHarness h;
  RecordingClient client;
  h.set_client(&client);
  std::string id = h.start("echo finished", {{"notify_on_complete", true}});
  h.process("poll", id);
  for (int i = 0; i < 200 && client.snapshot().empty(); ++i) ::usleep(10'000);
  auto events = client.snapshot();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0]["method"], "notifications/message");
  EXPECT_EQ(events[0]["params"]["logger"], "process");
  EXPECT_EQ(events[0]["params"]["data"]["type"], "completion");
  EXPECT_EQ(events[0]["params"]["data"]["session_id"], id);
  EXPECT_EQ(events[0]["params"]["data"]["output"], "finished");
}

TEST(Background, WatchPatternNotifies) {
  ProcessHarness h;
  RecordingClient client;
  h.set_client(&client);
  Json r = h.call("terminal", {{"command", "echo starting; echo READY on 8080; sleep 30"},
                               {"background", true},
                               {"watch_patterns", {"READY"}}});
  EXPECT_EQ(r["watch_patterns"], Json::array({"READY"}));
  for (int i = 0; i < 200 && client.snapshot().empty(); ++i) ::usleep(10'000);
  auto events = client.snapshot();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0]["params"]["data"]["type"], "watch_match");
  EXPECT_EQ(events[0]["params"]["data"]["output"], "READY on 8080");
}

TEST(Background, PtyMode) {
  ProcessHarness h;
  std::string id = h.start("test -t 1 && echo is-a-tty", {{"pty", true}});
  Json w = h.process("wait", id, {{"timeout", 10}});
  EXPECT_NE(w["output"].get<std::string>().find("is-a-tty"), std::string::npos) << w.dump();
}

TEST(Background, PtyDeviceQueriesAreAnswered) {
  ProcessHarness h;
  std::string id =
      h.start("printf '\\033[6n'; IFS= read -rs -d R pos; echo got-reply", {{"pty", true}});
  Json w = h.process("wait", id, {{"timeout", 10}});
  EXPECT_EQ(w["status"], "exited");
  EXPECT_NE(w["output"].get<std::string>().find("got-reply"), std::string::npos) << w.dump();
}

TEST(Background, GhTokenLoginForcesPipeMode) {
  ProcessHarness h;
  Json r =
      h.call("terminal",
             {{"command", "echo gh auth login --with-token"}, {"background", true}, {"pty", true}});
  EXPECT_TRUE(r.contains("pty_note"));
}

TEST(Background, DangerousBackgroundIsPending) {
  ProcessHarness h;
  Json r = h.call("terminal", {{"command", "rm -rf build"}, {"background", true}});
  EXPECT_EQ(r["status"], "pending_approval");
}

// Background jobs that try to outlive a kill: a setsid double fork whose
// pid the attacker writes to a file (the test then checks /proc). The
// attack lives in a script, as it would in a hostile repository.
std::string write_attack(ProcessHarness& h, const std::string& orphan = "sleep 300") {
  return h.work().write("attack.sh",
                        proc::testing::leave_orphan(h.work().file("pid"), orphan) + "\n");
}

TEST(BackgroundTree, KillLeavesNoSetsidSurvivor) {
  ProcessHarness h;
  std::string id = h.start("sh " + write_attack(h) + "; sleep 300");
  pid_t survivor = proc::testing::orphan_from(h.work().file("pid"));
  ASSERT_GT(survivor, 0);
  ASSERT_TRUE(proc::testing::is_running(survivor));
  Json k = h.process("kill", id);
  EXPECT_EQ(k["status"], "killed") << k.dump();
  EXPECT_FALSE(proc::testing::is_running(survivor));
  EXPECT_EQ(h.process("poll", id)["exit_code"], -15);
}

TEST(BackgroundTree, TreeIgnoringSigtermIsSigkilled) {
  ProcessHarness h("terminal:\n  daemon_term_grace_seconds: 0.3\n");
  std::string attack = write_attack(h, "trap \"\" TERM; while :; do sleep 1; done");
  std::string id = h.start("trap '' TERM; sh " + attack + "; sleep 300");
  pid_t survivor = proc::testing::orphan_from(h.work().file("pid"));
  ASSERT_GT(survivor, 0);
  Json k = h.process("kill", id);
  EXPECT_EQ(k["status"], "killed") << k.dump();
  EXPECT_EQ(k["stopped_by"], "SIGKILL");
  EXPECT_FALSE(proc::testing::is_running(survivor));
}

// A background job's processes run on, untouched, until killed — the
// detached one too, after the job's own shell has exited.
TEST(BackgroundTree, NormalJobIsUnaffectedUntilKilled) {
  ProcessHarness h;
  std::string id = h.start("sh " + write_attack(h) + "; echo started");
  pid_t daemon = proc::testing::orphan_from(h.work().file("pid"));
  ASSERT_GT(daemon, 0);
  Json w = h.process("wait", id, {{"timeout", 10}});
  EXPECT_EQ(w["status"], "exited");
  EXPECT_EQ(w["exit_code"], 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_TRUE(proc::testing::is_running(daemon));
  Json k = h.process("kill", id);
  EXPECT_EQ(k["status"], "already_exited") << k.dump();
  EXPECT_FALSE(proc::testing::is_running(daemon));
}

TEST(BackgroundTree, SessionEndLeavesNoSetsidSurvivor) {
  pid_t survivor = 0;
  {
    ProcessHarness h;
    h.start("sh " + write_attack(h) + "; sleep 300");
    survivor = proc::testing::orphan_from(h.work().file("pid"));
    ASSERT_GT(survivor, 0);
  }
  EXPECT_FALSE(proc::testing::is_running(survivor));
}

// Killing its supervisor (the shell's parent) hands the tree back to the
// server, a child subreaper: kill ends what came back, the setsid'd orphan
// and the shell included, and only then answers `killed`.
TEST(BackgroundTree, KilledSupervisorStillEndsTheWholeTree) {
  ProcessHarness h;
  std::string id = h.start("sh " + write_attack(h) + "; kill -KILL $PPID; sleep 300");
  pid_t survivor = proc::testing::orphan_from(h.work().file("pid"));
  ASSERT_GT(survivor, 0);
  int shell = h.process("poll", id)["pid"];
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  Json k = h.process("kill", id);
  EXPECT_EQ(k["status"], "killed") << k.dump();
  EXPECT_TRUE(proc::testing::dies_within(survivor, std::chrono::seconds(2)));
  EXPECT_TRUE(proc::testing::dies_within(shell, std::chrono::seconds(2)));
}

}  // namespace
}  // namespace hermes::process
