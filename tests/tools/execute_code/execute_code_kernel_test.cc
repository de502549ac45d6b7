// SPDX-License-Identifier: MIT
// The session's kernel with real python3 (docs/tools/execute_code.md, The
// kernel): persistence, isolation, reset, SIGINT-first interruption and the
// kill fallback, timeouts, crashes, idle reaping, the per-server cap, shown
// images, and no process left behind.
#include "core/paths.h"
#include "core/strings.h"
#include "testutil/status_matchers.h"
#include "tools/execute_code/kernel_pool.h"

#include <gtest/gtest.h>

#include <dirent.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <future>
#include <memory>
#include <set>
#include <thread>

#include "exec_harness.h"

namespace hermes::testing {
namespace {

using namespace std::chrono_literals;

bool process_alive(pid_t pid) { return ::kill(pid, 0) == 0; }

// Waits (bounded) for `pid` to be gone.
bool gone_within(pid_t pid, std::chrono::milliseconds limit) {
  auto until = std::chrono::steady_clock::now() + limit;
  while (process_alive(pid)) {
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::sleep_for(10ms);
  }
  return true;
}

// The kernel's pid, as a cell sees it.
pid_t kernel_pid(ExecHarness& h) {
  Json result = h.run("import os\nprint(os.getpid())");
  auto pid = parse_int(result["output"].get<std::string>());
  return pid ? static_cast<pid_t>(*pid) : -1;
}

// The processes descended from this one (kernels, supervisors, their children).
size_t descendants() {
  std::map<pid_t, pid_t> parent;
  DIR* proc = ::opendir("/proc");
  while (dirent* entry = proc ? ::readdir(proc) : nullptr) {
    auto pid = parse_int(entry->d_name);
    if (!pid) continue;
    std::ifstream stat("/proc/" + std::string(entry->d_name) + "/stat");
    std::string line;
    std::getline(stat, line);
    size_t close = line.rfind(')');
    if (close == std::string::npos) continue;
    std::vector<std::string> fields = split(line.substr(close + 2), ' ');
    if (fields.size() > 1 && fields[0] != "Z") {
      parent[static_cast<pid_t>(*pid)] = static_cast<pid_t>(parse_int(fields[1]).value_or(0));
    }
  }
  if (proc) ::closedir(proc);
  size_t count = 0;
  for (const auto& [pid, ppid] : parent) {
    for (pid_t up = ppid; up > 1; up = parent.count(up) ? parent[up] : 0) {
      if (up == ::getpid()) {
        ++count;
        break;
      }
    }
  }
  return count;
}

// The Python processes descended from this one.
std::set<pid_t> python_descendants() {
  std::set<pid_t> out;
  DIR* proc = ::opendir("/proc");
  while (dirent* entry = proc ? ::readdir(proc) : nullptr) {
    auto pid = parse_int(entry->d_name);
    if (!pid) continue;
    std::ifstream comm("/proc/" + std::string(entry->d_name) + "/comm");
    std::string name;
    std::getline(comm, name);
    if (!name.starts_with("python")) continue;
    std::ifstream stat("/proc/" + std::string(entry->d_name) + "/stat");
    std::string line;
    std::getline(stat, line);
    for (pid_t up = static_cast<pid_t>(*pid); up > 1;) {
      std::ifstream s("/proc/" + std::to_string(up) + "/stat");
      std::string l;
      std::getline(s, l);
      size_t close = l.rfind(')');
      if (close == std::string::npos) break;
      up = static_cast<pid_t>(parse_int(split(l.substr(close + 2), ' ')[1]).value_or(0));
      if (up == ::getpid()) {
        out.insert(static_cast<pid_t>(*pid));
        break;
      }
    }
  }
  if (proc) ::closedir(proc);
  return out;
}

TEST(ExecuteCodeKernel, GlobalsImportsAndCwdPersist) {
  ExecHarness h;
  Json first = h.run("import os, json\nx = 41\nos.chdir('/')\nprint('set')");
  ASSERT_EQ(first["status"], "success") << first.dump();
  EXPECT_EQ(first["fresh_kernel"], "first call of this session");
  Json second = h.run("print(x + 1, json.dumps([1]), os.getcwd())");
  EXPECT_EQ(second["output"], "42 [1] /\n") << second.dump();
  EXPECT_FALSE(second.contains("fresh_kernel"));
}

// A cell's output reaches the call's status while it runs.
TEST(ExecuteCodeKernel, OutputFeedsTheCallStatusAsItArrives) {
  ExecHarness h;
  registry::CallStatus status;
  h.set_status(&status);
  EXPECT_TRUE(testing::shows_line_during(status, "first line", [&] {
    EXPECT_EQ(h.run("import time\nprint('first line', flush=True)\ntime.sleep(1)")["status"],
              "success");
  }));
}

TEST(ExecuteCodeKernel, SessionsDoNotSeeEachOthersState) {
  ExecHarness a;
  ExecHarness b;
  ASSERT_EQ(a.run("secret = 1")["status"], "success");
  EXPECT_EQ(b.run("print('secret' in globals())")["output"], "False\n");
  EXPECT_NE(kernel_pid(a), kernel_pid(b));
}

TEST(ExecuteCodeKernel, ResetStartsAFreshKernel) {
  ExecHarness h;
  pid_t before = kernel_pid(h);
  ASSERT_EQ(h.run("x = 1")["status"], "success");
  Json reset = h.call("execute_code", Json{{"code", "print('x' in globals())"}, {"reset", true}});
  EXPECT_EQ(reset["output"], "False\n");
  EXPECT_EQ(reset["fresh_kernel"], "reset: true");
  EXPECT_TRUE(gone_within(before, 5s));
}

TEST(ExecuteCodeKernel, ResetMustBeABoolean) {
  ExecHarness h;
  EXPECT_THAT(h.call_result("execute_code", Json{{"code", "print(1)"}, {"reset", "yes"}}),
              IsError(ErrorCode::kInvalidArgument));
}

TEST(ExecuteCodeKernel, InterruptKeepsTheState) {
  Rendezvous meet;
  ExecHarness h("", {meet.tool()});
  pid_t pid = kernel_pid(h);
  ASSERT_EQ(h.run("x = 7")["status"], "success");
  registry::ToolCallResult reply = cancel_when_reached(
      h, meet,
      "from hermes_tools import web_search\nimport time\nprint('started', flush=True)\n"
      "web_search('x')\ntime.sleep(60)");
  EXPECT_THAT(reply, IsError(ErrorCode::kCancelled));
  EXPECT_EQ(reply.value["status"], "interrupted");
  EXPECT_EQ(reply.value["output"], "started\n\n[execution interrupted — user sent a new message]");
  EXPECT_FALSE(reply.value.contains("kernel_state_lost"));
  Json after = h.run("print(x)");
  EXPECT_EQ(after["output"], "7\n") << after.dump();
  EXPECT_FALSE(after.contains("fresh_kernel"));
  EXPECT_EQ(kernel_pid(h), pid);
}

TEST(ExecuteCodeKernel, ACellThatIgnoresSigintIsKilledAfterTheGrace) {
  Rendezvous meet;
  ExecHarness h("code_execution:\n  interrupt_grace: 0.2\n", {meet.tool()});
  pid_t pid = kernel_pid(h);
  registry::ToolCallResult reply =
      cancel_when_reached(h, meet,
                          "import signal, time\nfrom hermes_tools import web_search\n"
                          "signal.signal(signal.SIGINT, signal.SIG_IGN)\nweb_search('x')\n"
                          "while True: time.sleep(0.05)");
  EXPECT_THAT(reply, IsError(ErrorCode::kCancelled));
  EXPECT_EQ(reply.value["status"], "interrupted");
  EXPECT_EQ(reply.value["kernel_state_lost"], true);
  EXPECT_NE(reply.value["output"].get<std::string>().find("the kernel was killed"),
            std::string::npos)
      << reply.value.dump();
  EXPECT_FALSE(process_alive(pid));
  EXPECT_EQ(h.run("print(1)")["fresh_kernel"], "the previous kernel died or was killed");
}

TEST(ExecuteCodeKernel, TimeoutInterruptsAndKeepsTheState) {
  ExecHarness h("code_execution:\n  timeout: 1\n");
  ASSERT_EQ(h.run("x = 3")["status"], "success");
  registry::ToolCallResult reply = h.run_result("import time\ntime.sleep(30)");
  EXPECT_THAT(reply, IsError(ErrorCode::kTimeout));
  EXPECT_EQ(reply.value["error"],
            "Script timed out after 1s and was interrupted (KeyboardInterrupt); the kernel keeps "
            "its state.");
  EXPECT_EQ(h.run("print(x)")["output"], "3\n");
}

// A SIGINT that lands just before a blocking call is only handled once the
// call returns; the host repeats it until the cell answers. Here the cell
// itself lets the first one go by.
TEST(ExecuteCodeKernel, AnUnheededSigintIsRepeatedBeforeTheKill) {
  ExecHarness h("code_execution:\n  timeout: 1\n");
  ASSERT_EQ(h.run("x = 3")["status"], "success");
  registry::ToolCallResult reply = h.run_result(kSwallowsTheFirstSigint);
  EXPECT_THAT(reply, IsError(ErrorCode::kTimeout));
  EXPECT_FALSE(reply.value.contains("kernel_state_lost")) << reply.value.dump();
  EXPECT_EQ(h.run("print(x, len(seen) > 1)")["output"], "3 True\n");
}

// Only the first SIGINT raises: the repeats do not cut short the cell's own
// cleanup.
TEST(ExecuteCodeKernel, TheRepeatsDoNotInterruptTheCellsCleanup) {
  ExecHarness h("code_execution:\n  timeout: 1\n");
  registry::ToolCallResult reply = h.run_result(kCleansUpSlowly);
  EXPECT_THAT(reply, IsError(ErrorCode::kTimeout));
  EXPECT_TRUE(reply.value["output"].get<std::string>().starts_with("cleaned up\n"))
      << reply.value.dump();
  EXPECT_FALSE(reply.value.contains("kernel_state_lost"));
}

TEST(ExecuteCodeKernel, OsExitIsAnsweredAndTheNextCallGetsAFreshKernel) {
  ExecHarness h;
  ASSERT_EQ(h.run("x = 1")["status"], "success");
  registry::ToolCallResult reply = h.run_result("import os\nprint('bye', flush=True)\nos._exit(3)");
  EXPECT_THAT(reply, IsError(ErrorCode::kInternal));
  EXPECT_EQ(reply.value["status"], "error");
  EXPECT_EQ(reply.value["output"], "bye\n");
  EXPECT_EQ(reply.value["error"],
            "The Python kernel died (exit code 3) during this call. The kernel's state is lost; "
            "the next call starts a fresh kernel.");
  EXPECT_EQ(reply.value["kernel_state_lost"], true);
  Json next = h.run("print('x' in globals())");
  EXPECT_EQ(next["output"], "False\n");
  EXPECT_EQ(next["fresh_kernel"], "the previous kernel died or was killed");
}

TEST(ExecuteCodeKernel, SegfaultIsAnsweredAndTheNextCallGetsAFreshKernel) {
  ExecHarness h;
  Json crash = h.run("import ctypes\nctypes.string_at(0)");
  EXPECT_EQ(crash["status"], "error");
  EXPECT_EQ(crash["error"],
            "The Python kernel died (signal 11) during this call. The kernel's state is lost; "
            "the next call starts a fresh kernel.");
  EXPECT_EQ(h.run("print(2)")["output"], "2\n");
}

TEST(ExecuteCodeKernel, MemoryPastTheCapStopsTheKernel) {
  ExecHarness h("code_execution:\n  kernel_memory_mb: 256\n");
  pid_t before = kernel_pid(h);
  ASSERT_EQ(h.run("x = 1")["status"], "success");
  registry::ToolCallResult reply = h.run_result("b = bytearray(1 << 30)");
  EXPECT_THAT(reply, IsError(ErrorCode::kTooLarge));
  EXPECT_EQ(reply.value["error"],
            "The cell went past the kernel's memory limit (code_execution.kernel_memory_mb: 256). "
            "The kernel's state is lost; the next call starts a fresh kernel.");
  EXPECT_EQ(reply.value["kernel_state_lost"], true);
  EXPECT_NE(reply.value["output"].get<std::string>().find("MemoryError"), std::string::npos);
  EXPECT_TRUE(gone_within(before, 5s));
  Json next = h.run("print('x' in globals())");
  EXPECT_EQ(next["output"], "False\n");
  EXPECT_EQ(next["fresh_kernel"],
            "the previous kernel went past its memory limit (code_execution.kernel_memory_mb: "
            "256) and was stopped");
}

TEST(ExecuteCodeKernel, ACellThatCatchesMemoryErrorKeepsTheKernel) {
  ExecHarness h("code_execution:\n  kernel_memory_mb: 256\n");
  Json caught =
      h.run("x = 1\ntry:\n    b = bytearray(1 << 30)\nexcept MemoryError:\n    print('caught')");
  EXPECT_EQ(caught["output"], "caught\n") << caught.dump();
  EXPECT_EQ(h.run("print(x)")["output"], "1\n");
}

TEST(ExecuteCodeKernel, ExceptionsAndExitCodesKeepTheKernel) {
  ExecHarness h;
  ASSERT_EQ(h.run("x = 5")["status"], "success");
  Json raised = h.run("print('before')\nraise ValueError('boom')");
  EXPECT_EQ(raised["status"], "error");
  EXPECT_NE(raised["error"].get<std::string>().find("ValueError: boom"), std::string::npos);
  EXPECT_NE(raised["error"].get<std::string>().find("<cell"), std::string::npos);
  EXPECT_EQ(h.run("import sys\nsys.exit(4)")["error"], "Script exited with code 4");
  EXPECT_EQ(h.run("sys.exit(0)")["status"], "success");
  EXPECT_EQ(h.run("def f(:")["status"], "error");
  Json after = h.run("print(x)");
  EXPECT_EQ(after["output"], "5\n");
  EXPECT_FALSE(after.contains("fresh_kernel"));
}

TEST(ExecuteCodeKernel, ToolCallsWorkInEveryCellWithABudgetPerCall) {
  FakeTool search{"web_search", "web", query_schema(),
                  [](const Json& args, registry::CallContext&) {
                    return Json{{"echo", args["query"]}};
                  }};
  ExecHarness h("code_execution:\n  max_tool_calls: 2\n", {search});
  const char* cell =
      "from hermes_tools import web_search\n"
      "print([web_search(str(i)).get('echo', 'refused') for i in range(3)])";
  for (int i = 0; i < 2; ++i) {
    Json result = h.run(cell);
    EXPECT_EQ(result["output"], "['0', '1', 'refused']\n") << result.dump();
    EXPECT_EQ(result["tool_calls_made"], 2);
  }
}

TEST(ExecuteCodeKernel, IdleKernelIsReapedOnATimer) {
  ExecHarness h("code_execution:\n  kernel_idle_timeout: 1\n");
  pid_t pid = kernel_pid(h);
  ASSERT_GT(pid, 1);
  // No call in between: only the timer can end it.
  EXPECT_TRUE(gone_within(pid, 10s));
  Json next = h.run("print(1)");
  EXPECT_EQ(next["fresh_kernel"], "the previous kernel was idle for 1s and was stopped");
}

TEST(ExecuteCodeKernel, TheLeastRecentlyUsedIdleKernelIsEvicted) {
  const std::string yaml = "code_execution:\n  max_kernels: 2\n";
  ExecHarness a(yaml), b(yaml), c(yaml);
  pid_t first = kernel_pid(a);
  kernel_pid(b);
  kernel_pid(a);  // b is now the least recently used
  pid_t b_pid = kernel_pid(b);
  kernel_pid(a);
  kernel_pid(c);
  EXPECT_TRUE(gone_within(b_pid, 5s));
  EXPECT_TRUE(process_alive(first));
  EXPECT_EQ(b.run("print(1)")["fresh_kernel"],
            "the previous kernel was stopped to make room (code_execution.max_kernels: 2)");
  EXPECT_LE(execute_code::KernelPool::shared()->kernel_count(), 2u);
}

TEST(ExecuteCodeKernel, ARunningCellIsNeverEvicted) {
  Rendezvous meet;
  std::promise<void> release;
  meet.release = release.get_future().share();
  const std::string yaml = "code_execution:\n  max_kernels: 1\n";
  ExecHarness busy(yaml, {meet.tool()});
  ExecHarness other(yaml);
  auto running = std::async(std::launch::async, [&] {
    return busy.run("from hermes_tools import web_search\nx = 1\nweb_search('w')\nprint(x)");
  });
  meet.reached.get_future().wait();
  registry::ToolCallResult refused = other.run_result("print(1)");
  EXPECT_THAT(refused, IsError(ErrorCode::kUnavailable));
  EXPECT_NE(refused.value["error"].get<std::string>().find("All 1 Python kernels"),
            std::string::npos);
  release.set_value();
  Json done = running.get();
  EXPECT_EQ(done["output"], "1\n") << done.dump();
  EXPECT_EQ(done["status"], "success");
}

TEST(ExecuteCodeKernel, ShownImagesComeBack) {
  ExecHarness h;
  Json result = h.run(
      "from hermes_tools import show\n"
      "show(b'\\x89PNG\\r\\n\\x1a\\n' + bytes(100))\n"
      "open('p.png', 'wb').write(b'\\x89PNG\\r\\n\\x1a\\nabc')\nshow('p.png')\n"
      "try:\n    show(b'GIF89a')\nexcept ValueError as e:\n    print(e)");
  EXPECT_EQ(result["output"], "show() takes a PNG image\n") << result.dump();
  EXPECT_EQ(result["images_shown"], 2);
  EXPECT_FALSE(h.run("print(1)").contains("images_shown"));
}

// matplotlib's pyplot as the kernel sees it: figures left open are rendered
// and closed. A stand-in module, since matplotlib may not be installed.
TEST(ExecuteCodeKernel, OpenFiguresComeBackAsImages) {
  ExecHarness h;
  Json result = h.run(
      "import sys, types\n"
      "plt = types.ModuleType('matplotlib.pyplot')\n"
      "plt.open = [1, 2]\n"
      "class Fig:\n"
      "    def savefig(self, buf, format):\n"
      "        buf.write(b'\\x89PNG\\r\\n\\x1a\\n' + format.encode())\n"
      "plt.get_fignums = lambda: list(plt.open)\n"
      "plt.figure = lambda n: Fig()\n"
      "plt.close = lambda which: plt.open.clear()\n"
      "sys.modules['matplotlib.pyplot'] = plt\n");
  EXPECT_EQ(result["images_shown"], 2) << result.dump();
  EXPECT_FALSE(h.run("print(1)").contains("images_shown"));
}

TEST(ExecuteCodeKernel, SessionEndKillsTheWholeTree) {
  pid_t kernel = -1;
  pid_t daemon = -1;
  {
    ExecHarness h;
    kernel = kernel_pid(h);
    Json result = h.run(
        "import subprocess\n"
        "p = subprocess.Popen(['sleep', '300'], start_new_session=True)\nprint(p.pid)");
    daemon = static_cast<pid_t>(parse_int(result["output"].get<std::string>()).value_or(-1));
    ASSERT_GT(daemon, 1);
    EXPECT_TRUE(process_alive(daemon));  // it outlives its cell
  }
  EXPECT_FALSE(process_alive(kernel));
  EXPECT_FALSE(process_alive(daemon));
}

TEST(ExecuteCodeKernel, ManySessionsLeaveNothingRunning) {
  size_t before = descendants();
  for (int i = 0; i < 50; ++i) {
    ExecHarness h;
    ASSERT_EQ(h.run("import subprocess\nsubprocess.Popen(['sleep', '300'])")["status"], "success");
  }
  EXPECT_EQ(descendants(), before);
  EXPECT_EQ(execute_code::KernelPool::shared()->kernel_count(), 0u);
}

// Listing the tools (what a session does as it starts) starts a spare; the
// first call runs in it: the kernel already existed before the call.
TEST(ExecuteCodeKernel, APrestartedKernelServesTheFirstCall) {
  ExecHarness h("code_execution:\n  prestart_kernel: true\n");
  const registry::ToolSpec* spec = h.registry().find("execute_code", h.services());
  ASSERT_NE(spec, nullptr);
  spec->describe(h.services(), spec->description);
  auto pool = execute_code::KernelPool::shared();
  EXPECT_EQ(pool->kernel_count(), 1u);
  std::set<pid_t> before;
  for (auto until = std::chrono::steady_clock::now() + 10s;
       before.empty() && std::chrono::steady_clock::now() < until;) {
    std::this_thread::sleep_for(20ms);
    before = python_descendants();
  }
  Json first = h.run("import os\nprint(os.getcwd())\nprint(os.getpid())");
  EXPECT_EQ(first["fresh_kernel"], "first call of this session") << first.dump();
  std::vector<std::string> lines = split(first["output"].get<std::string>(), '\n');
  ASSERT_GE(lines.size(), 2u) << first.dump();
  EXPECT_EQ(lines[0], PathResolver::real_path(h.work().path()));  // moved to the session's cwd
  auto pid = parse_int(lines[1]);
  ASSERT_TRUE(pid);
  EXPECT_TRUE(before.count(static_cast<pid_t>(*pid))) << *pid << " was started by the call";
  EXPECT_EQ(pool->kernel_count(), 1u);  // the spare became the session's kernel
}

TEST(ExecuteCodeKernel, NoSpareUnlessAsked) {
  ExecHarness h;
  const registry::ToolSpec* spec = h.registry().find("execute_code", h.services());
  ASSERT_NE(spec, nullptr);
  spec->describe(h.services(), spec->description);
  EXPECT_EQ(execute_code::KernelPool::shared()->kernel_count(), 0u);
}

TEST(ExecuteCodeKernel, PerCallInterpreterWhenTheKernelIsOff) {
  ExecHarness h("code_execution:\n  kernel: false\n");
  ASSERT_EQ(h.run("x = 1")["status"], "success");
  Json next = h.run("print('x' in globals())");
  EXPECT_EQ(next["output"], "False\n");
  EXPECT_FALSE(next.contains("fresh_kernel"));
}

}  // namespace
}  // namespace hermes::testing
