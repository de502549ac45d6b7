// SPDX-License-Identifier: MIT
// execute_code's file RPC (the per-call script, `kernel: false`) on every
// non-native backend the test machine offers
// (portable-shell local, ssh to the test sshd, bubblewrap, the docker shim):
// tool calls, and a timeout that leaves neither the script nor its directory
// behind on the target, checked from the target itself.
#include "testutil/backend_targets.h"

#include <gtest/gtest.h>

#include <string>

#include "exec_harness.h"

namespace hermes::testing {
namespace {

class ExecOnBackend : public ::testing::TestWithParam<BackendKind> {
 protected:
  void SetUp() override {
    if (std::string why = unavailable_reason(GetParam()); !why.empty()) GTEST_SKIP() << why;
  }
  // A harness whose session works in `work_` on the target.
  // `code_execution` lines go in `extra_yaml`, indented.
  std::unique_ptr<ExecHarness> harness(const std::string& extra_yaml = "") {
    auto h = std::make_unique<ExecHarness>(backend_yaml(GetParam(), work_.path()) + kPerCall +
                                           extra_yaml);
    h->session().set_cwd(work_.path());
    return h;
  }
  // Runs `command` on the target with the terminal tool; its trimmed output.
  static std::string on_target(ExecHarness& h, const std::string& command) {
    Json result = h.call("terminal", {{"command", command}});
    std::string out = result.value("output", "");
    while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
    return out;
  }
  TempDir work_;
};

TEST_P(ExecOnBackend, ToolCallsGoThroughTheFiles) {
  auto h = harness();
  work_.write("data.txt", "a\nb\nc\n");
  Json result = h->run(
      "import os\n"
      "from hermes_tools import read_file, write_file\n"
      "print(os.path.basename(os.environ['HERMES_RPC_DIR']))\n"
      "print(read_file('data.txt')['total_lines'])\n"
      "print(write_file('out.txt', 'from the script\\n')['bytes_written'])");
  EXPECT_EQ(result["status"], "success") << result.dump();
  EXPECT_EQ(result["output"], "rpc\n3\n16\n");
  EXPECT_EQ(result["tool_calls_made"], 2);
  EXPECT_EQ(work_.read("out.txt"), "from the script\n");
}

TEST_P(ExecOnBackend, TimeoutLeavesNothingRunningOrOnDisk) {
  auto h = harness("  timeout: 2\n");
  Json result = h->run(
      "import os, time\n"
      "print(os.path.dirname(os.environ['HERMES_RPC_DIR']), os.getpid(), flush=True)\n"
      "time.sleep(60)");
  EXPECT_EQ(result["status"], "timeout") << result.dump();
  EXPECT_LT(result["duration_seconds"].get<double>(), 12.0);
  std::string out = result.value("output", "");
  std::string dir = out.substr(0, out.find(' '));
  std::string pid = out.substr(dir.size() + 1, out.find('\n') - dir.size() - 1);
  ASSERT_EQ(dir.find("/hermes_exec_"), dir.rfind('/')) << out;
  EXPECT_EQ(on_target(*h, "test -e " + dir + " && echo present || echo gone"), "gone");
  // Bubblewrap (the sandbox, the docker shim) gives every command its own
  // pid namespace, which dies with the command; elsewhere the script must be
  // gone or a zombie awaiting its reaper within two seconds.
  if (GetParam() != BackendKind::kPortable && GetParam() != BackendKind::kSsh) return;
  EXPECT_EQ(
      on_target(*h, "for i in $(seq 20); do s=$(cut -d' ' -f3 /proc/" + pid +
                        "/stat 2>/dev/null); [ -z \"$s\" ] || [ \"$s\" = Z ] && break; "
                        "sleep 0.1; done; case \"$s\" in ''|Z) echo gone;; *) echo \"$s\";; esac"),
      "gone")
      << "python " << pid << " on the target outlived the timeout";
}

INSTANTIATE_TEST_SUITE_P(NonNative, ExecOnBackend,
                         ::testing::Values(BackendKind::kPortable, BackendKind::kSsh,
                                           BackendKind::kSandbox, BackendKind::kDocker),
                         [](const auto& p) { return kind_name(p.param); });

}  // namespace
}  // namespace hermes::testing
