// SPDX-License-Identifier: MIT
// The terminal tool end to end in one session: results, persistence,
// timeouts, cancellation, truncation and hostile output.
#include "testutil/scoped_env.h"
#include "testutil/status_matchers.h"
#include "testutil/temp_dir.h"
#include "tools/terminal/terminal_harness.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <thread>

namespace hermes::terminal {
namespace {

using Clock = std::chrono::steady_clock;
using testing::TerminalHarness;

TEST(Terminal, EchoRoundTrip) {
  TerminalHarness h;
  Json r = h.run("echo hi");
  EXPECT_EQ(r, Json::parse(R"({"output":"hi","exit_code":0,"error":null})")) << r.dump();
}

// A foreground command's output reaches the call's status while it runs
// (a task's statusMessage, progress messages).
TEST(Terminal, OutputFeedsTheCallStatusAsItArrives) {
  TerminalHarness h;
  registry::CallStatus status;
  h.set_status(&status);
  EXPECT_TRUE(testing::shows_line_during(status, "first line", [&] {
    EXPECT_EQ(h.run("echo first line; sleep 1; echo done")["exit_code"], 0);
  }));
  // The wrapper's cwd marker, printed last, is never shown.
  EXPECT_EQ(status.view().last_line, "done");
  EXPECT_EQ(status.view().bytes, 16u);
}

TEST(Terminal, NonZeroExitIsData) {
  TerminalHarness h;
  Json r = h.run("grep nothing-here /dev/null");
  EXPECT_EQ(r["exit_code"], 1);
  EXPECT_TRUE(r["error"].is_null());
  EXPECT_EQ(r["exit_code_meaning"], "No matches found (not an error)");
}

TEST(Terminal, InvalidCommandType) {
  TerminalHarness h;
  Json r = h.call("terminal", {{"command", 5}});
  EXPECT_EQ(r["error"], "Invalid command: expected string, got int");
  EXPECT_EQ(r["status"], "error");
}

TEST(Terminal, StrayCodeArgumentPointsToExecuteCode) {
  TerminalHarness h;
  Json r = h.call("terminal", {{"code", "print(1)"}});
  EXPECT_EQ(r["status"], "error");
  EXPECT_NE(r["error"].get<std::string>().find("execute_code"), std::string::npos);
}

TEST(Terminal, ForegroundTimeoutCap) {
  TerminalHarness h;
  Json r = h.call("terminal", {{"command", "true"}, {"timeout", 601}});
  EXPECT_EQ(r, Json({{"error",
                      "Foreground timeout 601s exceeds the maximum of 600s. Use "
                      "background=true with notify_on_complete=true for "
                      "long-running commands."}}));
}

TEST(Terminal, CwdPersists) {
  TerminalHarness h;
  ::mkdir(h.work().file("sub").c_str(), 0755);
  Json r = h.run("cd sub");
  std::string sub = PathResolver::real_path(h.work().file("sub"));
  EXPECT_EQ(r["cwd"], sub) << r.dump();
  EXPECT_EQ(h.run("pwd")["output"], sub);
  EXPECT_FALSE(h.run("pwd").contains("cwd"));
  EXPECT_EQ(h.session().cwd(), sub);
}

TEST(Terminal, EnvFunctionsAndAliasesPersist) {
  TerminalHarness h;
  h.run("export FOO=bar; greet() { echo hello \"$1\"; }; alias ll='echo aliased'");
  EXPECT_EQ(h.run("echo $FOO")["output"], "bar");
  EXPECT_EQ(h.run("greet you")["output"], "hello you");
  EXPECT_EQ(h.run("ll")["output"], "aliased");
  EXPECT_EQ(h.run("UNEXPORTED=1; true; echo ${UNEXPORTED:-none}")["output"], "1");
  EXPECT_EQ(h.run("echo ${UNEXPORTED:-none}")["output"], "none");
}

TEST(Terminal, ExitSkipsTheSnapshot) {
  TerminalHarness h;
  Json r = h.run("export LOST=1; exit 3");
  EXPECT_EQ(r["exit_code"], 3);
  EXPECT_EQ(h.run("echo ${LOST:-unset}")["output"], "unset");
}

TEST(Terminal, TimeoutKillsAndReports) {
  TerminalHarness h;
  auto start = Clock::now();
  Json r = h.call("terminal", {{"command", "echo started; sleep 20 & sleep 20"}, {"timeout", 1}});
  // Guardrails refuse `&`; use a subshell instead.
  r = h.call("terminal", {{"command", "echo started; (sleep 20 | cat); sleep 20"}, {"timeout", 1}});
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(5));
  EXPECT_EQ(r["exit_code"], 124);
  EXPECT_EQ(r["output"], "started\n[Command timed out after 1s]");
}

TEST(Terminal, TimeoutWithoutOutputHasNoLeadingNewline) {
  TerminalHarness h;
  Json r = h.call("terminal", {{"command", "sleep 20"}, {"timeout", 1}});
  EXPECT_EQ(r["output"], "[Command timed out after 1s]");
}

TEST(Terminal, StopTokenInterrupts) {
  TerminalHarness h;
  std::stop_source source;
  std::jthread cancel([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    source.request_stop();
  });
  auto start = Clock::now();
  Json r = h.call("terminal", {{"command", "sleep 30"}}, source.get_token());
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(5));
  EXPECT_EQ(r["exit_code"], 130);
  EXPECT_EQ(r["output"], "[Command interrupted]");
}

// A timeout interrupts the command as Ctrl-C would and leaves it the grace
// to clean up (a lock file removed, here a line written); the result says
// the interrupt ended it.
TEST(Terminal, ATimeoutInterruptsAndLeavesTimeToCleanUp) {
  TerminalHarness h("terminal:\n  kill_grace_seconds: 20\n");
  Json r = h.call("terminal", {{"command", "trap 'sleep 0.3; echo cleaned > " +
                                               h.work().file("done") + "' INT; sleep 30"},
                               {"timeout", 1}});
  EXPECT_EQ(r["exit_code"], 124);
  EXPECT_EQ(r["output"], "[Command timed out after 1s]") << r.dump();
  EXPECT_EQ(r["stopped_by"], "SIGINT");
  EXPECT_EQ(h.work().read("done"), "cleaned\n");
}

// What ignores the interrupt is killed once the grace is over, and the
// result says so.
TEST(Terminal, ACommandIgnoringTheInterruptIsKilledAfterTheGrace) {
  TerminalHarness h("terminal:\n  kill_grace_seconds: 0.5\n");
  Json r = h.call("terminal", {{"command", "trap '' INT TERM; sleep 30"}, {"timeout", 1}});
  EXPECT_EQ(r["exit_code"], 124);
  EXPECT_EQ(r["stopped_by"], "SIGKILL") << r.dump();
}

// A snapshot bootstrap that fails says so, once, in the result: the reason
// and the rc file.
TEST(Terminal, AFailedSnapshotBootstrapIsNotedOnce) {
  testing::TempDir home;
  home.write(".bashrc", "exit 3\n");
  testing::ScopedEnv env("HOME", home.path());
  TerminalHarness h;
  Json r = h.run("echo hi");
  EXPECT_EQ(r["output"], "hi");
  std::string note = r.value("snapshot_note", "");
  EXPECT_NE(note.find("exited with 3"), std::string::npos) << r.dump();
  EXPECT_NE(note.find("~/.bashrc"), std::string::npos) << note;
  EXPECT_FALSE(h.run("echo again").contains("snapshot_note"));
}

TEST(Terminal, DaemonDoesNotHoldTheCall) {
  TerminalHarness h;
  auto start = Clock::now();
  Json r = h.run("(setsid sleep 30 >/dev/null 2>&1 <&- &) ; (sleep 30 &) ; echo done");
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(3));
  EXPECT_EQ(r["output"], "done");
  EXPECT_EQ(r["exit_code"], 0);
}

TEST(Terminal, ClosedStdout) {
  TerminalHarness h;
  Json r = h.run("exec 1>&- 2>&-; sleep 0.1; exit 5");
  EXPECT_EQ(r["exit_code"], 5);
  EXPECT_EQ(r["output"], "");
}

TEST(Terminal, LargeOutputIsTruncatedAndSpilled) {
  TerminalHarness h;
  Json r = h.run("seq 1 200000");
  std::string out = r["output"];
  EXPECT_LT(out.size(), 60'000u);
  EXPECT_EQ(out.rfind("1\n2\n3\n", 0), 0u);
  EXPECT_NE(out.find("... [OUTPUT TRUNCATED - "), std::string::npos);
  EXPECT_NE(out.find(" chars omitted out of 1,288,895 total] ..."), std::string::npos)
      << out.substr(0, 100);
  EXPECT_TRUE(out.ends_with("199999\n200000"));
  EXPECT_EQ(r["output_total_chars"], 1288895);
  std::string spill = r["full_output_path"];
  struct stat st;
  ASSERT_EQ(::stat(spill.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(static_cast<uint64_t>(st.st_size), 1288895u - 1);  // trailing newline trimmed
  if (::getenv("KEEP_SPILL") == nullptr) ::unlink(spill.c_str());
}

TEST(Terminal, HugeOutputStaysBounded) {
  TerminalHarness h;
  Json r = h.call("terminal",
                  {{"command", "head -c 300000000 /dev/zero | tr '\\0' a"}, {"timeout", 60}});
  EXPECT_EQ(r["exit_code"], 0);
  EXPECT_EQ(r["output_total_chars"], 300000000);
  EXPECT_LT(r["output"].get<std::string>().size(), 60'000u);
  if (r.contains("full_output_path")) ::unlink(r["full_output_path"].get<std::string>().c_str());
}

TEST(Terminal, InvalidUtf8AndBinaryBecomeValidJson) {
  TerminalHarness h;
  Json r = h.run("printf 'ok \\xff\\xfe\\x00\\x01 caf\\xc3\\xa9'");
  std::string dumped = r.dump();  // throws on invalid UTF-8
  EXPECT_EQ(r["output"], "ok \xEF\xBF\xBD\xEF\xBF\xBD" + std::string("\0\x01", 2) + " caf\xc3\xa9");
}

TEST(Terminal, AnsiIsStripped) {
  TerminalHarness h;
  EXPECT_EQ(h.run("printf '\\033[31mred\\033[0m \\342\\202\\254'")["output"], "red \xe2\x82\xac");
}

TEST(Terminal, DeletedCwdFallsBackToAncestor) {
  TerminalHarness h;
  std::string gone = h.work().file("gone");
  ::mkdir(gone.c_str(), 0755);
  h.session().set_cwd(gone);
  ::rmdir(gone.c_str());
  Json r = h.run("pwd");
  EXPECT_EQ(r["exit_code"], 0);
  EXPECT_EQ(r["output"], PathResolver::real_path(h.work().path()));
}

TEST(Terminal, WorkdirValidation) {
  TerminalHarness h;
  Json r = h.call("terminal", {{"command", "pwd"}, {"workdir", "/tmp;rm"}});
  EXPECT_EQ(
      r,
      Json::parse(
          R"({"output":"","exit_code":-1,"error":"Blocked: workdir contains disallowed character ';'. Use a simple filesystem path without shell metacharacters.","status":"blocked"})"));
  r = h.call("terminal", {{"command", "pwd"}, {"workdir", "/no/such/dir"}});
  EXPECT_EQ(r["exit_code"], 126);
  r = h.call("terminal", {{"command", "pwd"}, {"workdir", "/"}});
  EXPECT_EQ(r["output"], "/");
  EXPECT_FALSE(r.contains("cwd"));
}

TEST(Terminal, GuardrailRefusal) {
  TerminalHarness h;
  Json r = h.run("nohup sleep 1");
  EXPECT_EQ(r["status"], "error");
  EXPECT_EQ(r["exit_code"], -1);
}

// isError and its code come from the typed result: a command that ran is no
// failure whatever its exit code or output; each refusal has its code.
TEST(Terminal, FailuresCarryTheirErrorCode) {
  TerminalHarness h;
  auto call = [&](Json args) { return h.call_result("terminal", args); };
  EXPECT_THAT(call({{"command", "echo '{\"error\": \"x\", \"status\": \"error\"}'; exit 3"}}),
              testing::IsOk());
  EXPECT_THAT(call({{"command", 5}}), testing::IsError(ErrorCode::kInvalidArgument));
  EXPECT_THAT(call({{"command", "true"}, {"timeout", -1}}),
              testing::IsError(ErrorCode::kInvalidArgument));
  EXPECT_THAT(call({{"command", "true"}, {"timeout", 601}}),
              testing::IsError(ErrorCode::kInvalidArgument));
  EXPECT_THAT(call({{"command", "nohup sleep 1"}}), testing::IsError(ErrorCode::kInvalidArgument));
  EXPECT_THAT(call({{"command", "pwd"}, {"workdir", "/tmp;rm"}}),
              testing::IsError(ErrorCode::kInvalidArgument));
  EXPECT_THAT(call({{"command", "rm -rf keep"}}), testing::IsError(ErrorCode::kPermissionDenied));
}

TEST(Terminal, EnvDumpIsRedactedWithAssignments) {
  TerminalHarness h;
  Json r = h.run("export MY_API_KEY=supersecretvalue123456789; env | grep MY_API_KEY");
  EXPECT_EQ(r["output"].get<std::string>().find("supersecretvalue123456789"), std::string::npos)
      << r.dump();
  r = h.run("echo MAX_TOKENS=100");
  EXPECT_EQ(r["output"], "MAX_TOKENS=100");
}

}  // namespace
}  // namespace hermes::terminal

namespace hermes::terminal {
namespace {

TEST(TerminalApproval, DangerousCommandIsPendingAndDoesNotRun) {
  TerminalHarness h;
  h.work().write("keep/file", "x");
  Json r = h.run("rm -rf keep");
  // The error says, in one sentence, how a person lets the command through.
  const std::string error =
      "This command needs approval (recursive delete) and no one could be asked through this "
      "client: a person can allow it by adding \"recursive delete\" to command_allowlist in " +
      h.home().path() +
      "/config.yaml, or by turning approvals off (approvals.mode: off, or --yolo).";
  Json expected = Json::parse(R"({"output":"","exit_code":-1,"error":"","status":"pending_approval",
    "approval_pending":true,"command":"rm -rf keep","description":"recursive delete",
    "pattern_key":"recursive delete","smart_denied":false,"allow_permanent":true})");
  expected["error"] = error;
  EXPECT_EQ(r, expected);
  EXPECT_EQ(h.work().read("keep/file"), "x");
}

// Names that reach the session without the gate seeing their definition
// (a sourced file) are read from the snapshot at their call sites.
TEST(TerminalApproval, SnapshotDefinitionsAreReadWhereTheyAreUsed) {
  TerminalHarness h;
  h.work().write("keep/file", "x");
  h.work().write("defs.sh", "zap() { rm -rf \"$1\"; }\nalias wipe='rm -rf'\nexport TOOL=rm\n");
  EXPECT_EQ(h.run("source ./defs.sh")["exit_code"], 0);
  for (const char* call : {"zap keep", "wipe keep", "$TOOL -rf keep"}) {
    Json r = h.run(call);
    EXPECT_EQ(r["status"], "pending_approval") << call;
    EXPECT_EQ(r["description"], "recursive delete") << call;
  }
  EXPECT_EQ(h.work().read("keep/file"), "x");
}

TEST(TerminalApproval, ClientArgumentsCannotSkipApproval) {
  TerminalHarness h;
  Json r = h.call("terminal", {{"command", "python3 -c 'print(1)'"}, {"force", true}});
  EXPECT_EQ(r["status"], "pending_approval");
}

TEST(TerminalApproval, HardlineBlockedEvenWithYolo) {
  TerminalHarness h("approvals:\n  yolo: true\n");
  Json r = h.run("rm -rf /");
  EXPECT_EQ(r["status"], "blocked");
  EXPECT_EQ(r["error"].get<std::string>().rfind("BLOCKED (hardline): ", 0), 0u);
  EXPECT_THAT(h.call_result("terminal", {{"command", "rm -rf /"}}),
              testing::IsError(ErrorCode::kPermissionDenied));
}

TEST(TerminalApproval, YoloRuns) {
  TerminalHarness h("approvals:\n  yolo: true\n");
  EXPECT_EQ(h.run("python3 -c 'print(6*7)'")["output"], "42");
}

}  // namespace
}  // namespace hermes::terminal
