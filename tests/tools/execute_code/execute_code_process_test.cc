// SPDX-License-Identifier: MIT
// execute_code's process control with real python3: interruption through
// the stop token, escaped daemons killed, TERM-ignoring scripts killed after
// the grace, concurrent runs, availability and the per-session description.
#include "core/strings.h"
#include "testutil/status_matchers.h"

#include <gtest/gtest.h>

#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <future>
#include <thread>

#include "exec_harness.h"

namespace hermes::testing {
namespace {

bool process_alive(pid_t pid) { return ::kill(pid, 0) == 0; }

TEST(ExecuteCodeProcess, StopTokenInterruptsTheScript) {
  Rendezvous meet;
  ExecHarness h("", {meet.tool()});
  registry::ToolCallResult reply =
      cancel_when_reached(h, meet,
                          "from hermes_tools import web_search\nimport time\n"
                          "print('started', flush=True)\nweb_search('x')\ntime.sleep(60)");
  EXPECT_THAT(reply, IsError(ErrorCode::kCancelled));
  const Json& result = reply.value;
  EXPECT_EQ(result["status"], "interrupted");
  EXPECT_EQ(result["output"], "started\n\n[execution interrupted — user sent a new message]");
  EXPECT_EQ(result["tool_calls_made"], 1);
  EXPECT_LT(result["duration_seconds"].get<double>(), 5.0);
}

// The daemon double-forks and starts its own session, escaping the
// script's process group; the subreaper still holds it.
constexpr const char* kDaemonScript =
    "import os, sys, time\n"
    "r, w = os.pipe()\n"
    "if os.fork() == 0:\n"
    "    os.setsid()\n"
    "    if os.fork() == 0:\n"
    "        os.write(w, str(os.getpid()).encode())\n"
    "        os.close(w)\n"
    "        time.sleep(300)\n"
    "    os._exit(0)\n"
    "os.close(w)\n"
    "print(os.read(r, 32).decode(), flush=True)\n";

TEST(ExecuteCodeProcess, DaemonIsKilledWhenTheScriptEnds) {
  ExecHarness h(kPerCall);
  Json result = h.run(kDaemonScript);
  ASSERT_EQ(result["status"], "success") << result.dump();
  auto pid = parse_int(result["output"].get<std::string>());
  ASSERT_TRUE(pid && *pid > 1);
  EXPECT_FALSE(process_alive(static_cast<pid_t>(*pid)));
  EXPECT_LT(result["duration_seconds"].get<double>(), 5.0);
}

TEST(ExecuteCodeProcess, DaemonIsKilledOnTimeout) {
  ExecHarness h(kPerCallTimeout1);
  Json result = h.run(std::string(kDaemonScript) + "time.sleep(60)\n");
  EXPECT_EQ(result["status"], "timeout");
  auto pid = parse_int(split(result["output"].get<std::string>(), '\n')[0]);
  ASSERT_TRUE(pid);
  EXPECT_FALSE(process_alive(static_cast<pid_t>(*pid)));
}

TEST(ExecuteCodeProcess, StagingIsRemovedAfterATimeout) {
  ExecHarness h(kPerCallTimeout1);
  Json result = h.run(
      "import os, time\nprint(os.path.dirname(os.environ['HERMES_RPC_SOCKET']), flush=True)\n"
      "time.sleep(60)");
  ASSERT_EQ(result["status"], "timeout");
  std::string staging = split(result["output"].get<std::string>(), '\n')[0];
  EXPECT_EQ(staging.rfind("/tmp/hermes_sandbox_", 0), 0u);
  EXPECT_NE(::access(staging.c_str(), F_OK), 0);
}

TEST(ExecuteCodeProcess, TermIgnoringScriptIsKilledAfterTheGrace) {
  ExecHarness h(kPerCallTimeout1);
  Json result = h.run(
      "import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
      "while True: time.sleep(0.05)");
  EXPECT_EQ(result["status"], "timeout");
  double seconds = result["duration_seconds"].get<double>();
  EXPECT_GE(seconds, 5.5);  // 1 s timeout + 5 s grace before SIGKILL
  EXPECT_LT(seconds, 9.0);
}

TEST(ExecuteCodeProcess, OtherCallsAreServedWhileAScriptRuns) {
  Rendezvous meet;
  std::promise<void> release;
  meet.release = release.get_future().share();
  ExecHarness h(kPerCall, {meet.tool()});
  auto slow = std::async(std::launch::async, [&] {
    return h.run("from hermes_tools import web_search\nweb_search('wait')\nprint('slow')");
  });
  meet.reached.get_future().wait();
  EXPECT_EQ(h.run("print(1)")["output"], "1\n");
  release.set_value();
  EXPECT_EQ(slow.get()["output"], "slow\n");
}

TEST(ExecuteCodeProcess, StdinIsDevNull) {
  ExecHarness h;
  EXPECT_EQ(h.run("import sys\nprint(repr(sys.stdin.read()))")["output"], "''\n");
}

TEST(ExecuteCodeProcess, ScriptLeadsItsOwnProcessGroup) {
  ExecHarness h;
  Json result = h.run(
      "import os\nprint(os.getpgid(0) == os.getpid(), os.getpgid(0) != os.getpgid(os.getppid()))");
  EXPECT_EQ(result["output"], "True True\n");
}

TEST(ExecuteCodeProcess, HiddenWhenPython3IsMissing) {
  ExecHarness h;
  std::string saved = std::getenv("PATH");
  ::setenv("PATH", h.work().path().c_str(), 1);
  bool listed = h.registry().find("execute_code", h.services()) != nullptr;
  ::setenv("PATH", saved.c_str(), 1);
  EXPECT_FALSE(listed);
  EXPECT_NE(h.registry().find("execute_code", h.services()), nullptr);
}

TEST(ExecuteCodeProcess, DescriptionListsTheToolsScriptsCanCall) {
  FakeTool search{"web_search", "web", query_schema(),
                  [](const Json&, registry::CallContext&) { return Json::object(); }};
  FakeTool delegate{"delegate_task", "task", query_schema(),
                    [](const Json&, registry::CallContext&) { return Json::object(); }};
  ExecHarness h("", {search, delegate});
  const registry::ToolSpec* spec = h.registry().find("execute_code", h.services());
  ASSERT_NE(spec, nullptr);
  std::string text = spec->describe(h.services(), spec->description);
  EXPECT_NE(text.find("  read_file(path: str, offset: int = 1, limit: int = 2000) -> dict"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  web_search(query: str, limit: int = 5) -> dict"), std::string::npos);
  EXPECT_NE(text.find("  terminal(command: str"), std::string::npos);
  EXPECT_EQ(text.find("background:"), std::string::npos);  // hidden from terminal()
  EXPECT_EQ(text.find("delegate_task"), std::string::npos);
  EXPECT_NE(text.find("5-minute timeout, 50KB stdout cap, max 50 tool calls per script"),
            std::string::npos);
  EXPECT_NE(text.find("from hermes_tools import"), std::string::npos);
}

}  // namespace
}  // namespace hermes::testing
