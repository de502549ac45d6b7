// SPDX-License-Identifier: MIT
// The session's kernel on every non-native backend the test machine offers
// (portable-shell local, ssh to the test sshd, bubblewrap, the docker shim),
// over the launcher's stream (docs/tools/execute_code.md, The kernel on
// other backends): persistence, tool calls, interrupt first, the kill
// fallback, crashes, the memory cap, and nothing left on the target after a
// reset or the session's end. Every target is this host, so what runs there
// is found in /proc by the id each kernel carries (HERMES_KERNEL_ID).
#include "core/strings.h"
#include "testutil/backend_targets.h"

#include <gtest/gtest.h>

#include <dirent.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "exec_harness.h"

namespace hermes::testing {
namespace {

using namespace std::chrono_literals;

// The processes on this host whose environment holds HERMES_KERNEL_ID=`id`
// (a kernel and whatever it started).
int processes_of_kernel(const std::string& id) {
  const std::string entry = "HERMES_KERNEL_ID=" + id;
  int count = 0;
  DIR* proc = ::opendir("/proc");
  while (dirent* d = proc ? ::readdir(proc) : nullptr) {
    if (!parse_int(d->d_name)) continue;
    std::ifstream environ(std::string("/proc/") + d->d_name + "/environ");
    std::string var;
    while (std::getline(environ, var, '\0')) {
      if (var == entry) {
        ++count;
        break;
      }
    }
  }
  if (proc) ::closedir(proc);
  return count;
}

// Waits (bounded) until `count` processes of kernel `id` run.
bool kernel_processes_within(const std::string& id, int count, std::chrono::milliseconds limit) {
  auto until = std::chrono::steady_clock::now() + limit;
  while (processes_of_kernel(id) != count) {
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::sleep_for(20ms);
  }
  return true;
}

// Waits (bounded) until nothing of kernel `id` runs.
bool kernel_gone_within(const std::string& id, std::chrono::milliseconds limit) {
  return kernel_processes_within(id, 0, limit);
}

constexpr const char* kPrintId = "import os\nprint(os.environ['HERMES_KERNEL_ID'])";

class StreamKernel : public ::testing::TestWithParam<BackendKind> {
 protected:
  void SetUp() override {
    if (std::string why = unavailable_reason(GetParam()); !why.empty()) GTEST_SKIP() << why;
  }
  // A harness whose session works in `work_` on the target; `code_execution`
  // lines go in `settings`, indented.
  std::unique_ptr<ExecHarness> harness(const std::string& settings = "") {
    auto h = std::make_unique<ExecHarness>(backend_yaml(GetParam(), work_.path()) +
                                           "code_execution:\n  kernel: true\n" + settings);
    h->session().set_cwd(work_.path());
    return h;
  }
  // The id of the session's kernel, as a cell sees it.
  static std::string kernel_id(ExecHarness& h) {
    Json result = h.run(kPrintId);
    std::string out = result.value("output", "");
    return std::string(trim(out));
  }
  TempDir work_;
};

TEST_P(StreamKernel, StatePersistsAcrossCalls) {
  auto h = harness();
  Json first = h->run("import os, json\nx = 41\nprint('HERMES_RPC_DIR' in os.environ)");
  ASSERT_EQ(first["status"], "success") << first.dump();
  EXPECT_EQ(first["output"], "False\n");
  EXPECT_EQ(first["fresh_kernel"], "first call of this session");
  Json second = h->run("print(x + 1, json.dumps([1]))");
  EXPECT_EQ(second["output"], "42 [1]\n") << second.dump();
  EXPECT_FALSE(second.contains("fresh_kernel"));
  EXPECT_EQ(processes_of_kernel(kernel_id(*h)), 2);  // the kernel and its pump
}

TEST_P(StreamKernel, ToolCallsImagesAndChildOutputTravelOnTheStream) {
  auto h = harness();
  work_.write("data.txt", "a\nb\nc\n");
  Json result = h->run(
      "import subprocess, hermes_tools\n"
      "from hermes_tools import read_file, write_file\n"
      "print(read_file('data.txt')['total_lines'])\n"
      "print(write_file('out.txt', 'from the kernel\\n')['bytes_written'], flush=True)\n"
      "subprocess.run(['echo', 'from a child'])\n"
      "hermes_tools.show(b'\\x89PNG\\r\\n\\x1a\\n' + b'0' * 8)");
  EXPECT_EQ(result["status"], "success") << result.dump();
  EXPECT_EQ(result["output"], "3\n16\nfrom a child\n");
  EXPECT_EQ(result["tool_calls_made"], 2);
  EXPECT_EQ(result["images_shown"], 1);
  EXPECT_EQ(work_.read("out.txt"), "from the kernel\n");
}

TEST_P(StreamKernel, TimeoutInterruptsAndKeepsTheState) {
  auto h = harness("  timeout: 1\n");
  ASSERT_EQ(h->run("x = 3")["status"], "success");
  Json reply = h->run("import time\ntime.sleep(30)");
  EXPECT_EQ(reply["status"], "timeout") << reply.dump();
  EXPECT_EQ(reply["error"],
            "Script timed out after 1s and was interrupted (KeyboardInterrupt); the kernel keeps "
            "its state.");
  Json after = h->run("print(x)");
  EXPECT_EQ(after["output"], "3\n") << after.dump();
  EXPECT_FALSE(after.contains("fresh_kernel"));
}

TEST_P(StreamKernel, ACellThatIgnoresSigintIsKilledAfterTheGrace) {
  auto h = harness("  timeout: 1\n  interrupt_grace: 0.2\n");
  std::string id = kernel_id(*h);
  Json reply = h->run(
      "import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n"
      "while True: time.sleep(0.05)");
  EXPECT_EQ(reply["status"], "timeout") << reply.dump();
  EXPECT_EQ(reply["kernel_state_lost"], true);
  EXPECT_TRUE(kernel_gone_within(id, 5s));
  EXPECT_EQ(h->run("print(1)")["fresh_kernel"], "the previous kernel died or was killed");
}

TEST_P(StreamKernel, AnUnheededSigintIsRepeatedBeforeTheKill) {
  auto h = harness("  timeout: 1\n");
  ASSERT_EQ(h->run("x = 3")["status"], "success");
  Json reply = h->run(kSwallowsTheFirstSigint);
  EXPECT_EQ(reply["status"], "timeout") << reply.dump();
  EXPECT_FALSE(reply.contains("kernel_state_lost")) << reply.dump();
  EXPECT_EQ(h->run("print(x, len(seen) > 1)")["output"], "3 True\n");
}

TEST_P(StreamKernel, TheRepeatsDoNotInterruptTheCellsCleanup) {
  auto h = harness("  timeout: 1\n");
  Json reply = h->run(kCleansUpSlowly);
  EXPECT_EQ(reply["status"], "timeout") << reply.dump();
  EXPECT_TRUE(reply["output"].get<std::string>().starts_with("cleaned up\n")) << reply.dump();
  EXPECT_FALSE(reply.contains("kernel_state_lost"));
}

// sum() over a range runs in C without giving up the GIL: neither SIGINT
// nor the driver's own threads get a turn, so only the host can end it.
TEST_P(StreamKernel, ACellHoldingTheGilIsKilledFromTheHost) {
  auto h = harness("  timeout: 1\n  interrupt_grace: 0.2\n");
  std::string id = kernel_id(*h);
  Json reply = h->run("sum(range(10 ** 13))");
  EXPECT_EQ(reply["status"], "timeout") << reply.dump();
  EXPECT_EQ(reply["kernel_state_lost"], true);
  EXPECT_TRUE(kernel_gone_within(id, 5s));
  EXPECT_EQ(h->run("print(1)")["output"], "1\n");
}

TEST_P(StreamKernel, CrashesAreAnsweredAndTheNextCallGetsAFreshKernel) {
  auto h = harness();
  ASSERT_EQ(h->run("x = 1")["status"], "success");
  Json exited = h->run("import os\nprint('bye', flush=True)\nos._exit(3)");
  EXPECT_EQ(exited["output"], "bye\n") << exited.dump();
  EXPECT_EQ(exited["error"],
            "The Python kernel died (exit code 3) during this call. The kernel's state is lost; "
            "the next call starts a fresh kernel.");
  EXPECT_EQ(exited["kernel_state_lost"], true);
  Json crashed = h->run("import ctypes\nctypes.string_at(0)");
  EXPECT_EQ(crashed["fresh_kernel"], "the previous kernel died or was killed");
  EXPECT_EQ(crashed["error"],
            "The Python kernel died (signal 11) during this call. The kernel's state is lost; the "
            "next call starts a fresh kernel.");
  Json next = h->run("print('x' in globals())");
  EXPECT_EQ(next["output"], "False\n");
}

TEST_P(StreamKernel, MemoryPastTheCapStopsTheKernel) {
  auto h = harness("  kernel_memory_mb: 256\n");
  std::string id = kernel_id(*h);
  Json reply = h->run("x = 1\nb = bytearray(1 << 30)");
  EXPECT_EQ(reply["status"], "error") << reply.dump();
  EXPECT_EQ(reply["error"],
            "The cell went past the kernel's memory limit (code_execution.kernel_memory_mb: 256). "
            "The kernel's state is lost; the next call starts a fresh kernel.");
  EXPECT_EQ(reply["kernel_state_lost"], true);
  EXPECT_NE(reply["output"].get<std::string>().find("MemoryError"), std::string::npos);
  EXPECT_TRUE(kernel_gone_within(id, 5s));
  Json next = h->run("print('x' in globals())");
  EXPECT_EQ(next["output"], "False\n");
  EXPECT_EQ(next["fresh_kernel"],
            "the previous kernel went past its memory limit (code_execution.kernel_memory_mb: "
            "256) and was stopped");
}

TEST_P(StreamKernel, ResetEndsTheOldKernelThere) {
  auto h = harness();
  std::string id = kernel_id(*h);
  Json reset = h->call("execute_code", Json{{"code", "print(1)"}, {"reset", true}});
  EXPECT_EQ(reset["fresh_kernel"], "reset: true") << reset.dump();
  EXPECT_TRUE(kernel_gone_within(id, 5s));
}

TEST_P(StreamKernel, SessionEndLeavesNothingOnTheTarget) {
  std::string id;
  {
    auto h = harness();
    id = kernel_id(*h);
    Json started = h->run(
        "import subprocess\n"
        "subprocess.Popen(['sleep', '300'])\n"
        "subprocess.Popen(['sleep', '300'], start_new_session=True)\n");
    ASSERT_EQ(started["status"], "success") << started.dump();
    // The kernel, its pump and the two sleeps.
    EXPECT_TRUE(kernel_processes_within(id, 4, 5s)) << processes_of_kernel(id);
  }
  EXPECT_TRUE(kernel_gone_within(id, 5s)) << processes_of_kernel(id) << " left";
}

TEST_P(StreamKernel, DescriptionSaysWhereCellsRun) {
  auto h = harness();
  const registry::ToolSpec* spec = h->registry().find("execute_code", h->services());
  ASSERT_NE(spec, nullptr);
  std::string text = spec->describe(h->services(), "");
  EXPECT_NE(text.find("Scripts run with the terminal backend's python3 on that machine, in the "
                      "session's working directory there"),
            std::string::npos)
      << text;
  Json cwd = h->run("import os\nprint(os.getcwd())");
  EXPECT_EQ(cwd["output"], work_.path() + "\n") << cwd.dump();
}

INSTANTIATE_TEST_SUITE_P(NonNative, StreamKernel,
                         ::testing::Values(BackendKind::kPortable, BackendKind::kSsh,
                                           BackendKind::kSandbox, BackendKind::kDocker),
                         [](const auto& p) { return kind_name(p.param); });

}  // namespace
}  // namespace hermes::testing
