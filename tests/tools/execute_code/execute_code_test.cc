// SPDX-License-Identifier: MIT
// execute_code end to end with real python3: result shapes, output
// cleaning and limits, modes, tool calls through the module
// (docs/tools/execute_code.md).
#include "core/strings.h"
#include "testutil/status_matchers.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "exec_harness.h"

namespace hermes::testing {
namespace {

std::string output_of(const Json& result) { return result.value("output", ""); }

TEST(ExecuteCode, PrintsOnlyWhatTheScriptPrints) {
  ExecHarness h;
  h.run("pass");  // the session's first call says its kernel is fresh
  Json result = h.run("print('hello')\nprint(6 * 7)");
  EXPECT_EQ(result["status"], "success") << result.dump();
  EXPECT_EQ(result["output"], "hello\n42\n");
  EXPECT_EQ(result["tool_calls_made"], 0);
  EXPECT_TRUE(result["duration_seconds"].is_number());
  EXPECT_FALSE(result.contains("error"));
  std::vector<std::string> keys;
  for (const auto& [key, value] : result.items()) keys.push_back(key);
  EXPECT_EQ(keys,
            (std::vector<std::string>{"status", "output", "tool_calls_made", "duration_seconds"}));
}

// isError and its code come from the typed result: what a script prints is
// data, however it looks; each way a run fails has its code.
TEST(ExecuteCode, FailuresCarryTheirErrorCode) {
  ExecHarness h("code_execution:\n  timeout: 1\n");
  EXPECT_THAT(h.run_result("print('{\"status\": \"error\", \"error\": \"x\"}')"), IsOk());
  EXPECT_THAT(h.run_result(" "), IsError(ErrorCode::kInvalidArgument));
  EXPECT_THAT(h.run_result("import sys; sys.exit(3)"), IsError(ErrorCode::kInvalidArgument));
  EXPECT_THAT(h.run_result("import time; time.sleep(60)"), IsError(ErrorCode::kTimeout));
}

TEST(ExecuteCode, DurationHasTwoDecimals) {
  ExecHarness h;
  double seconds = h.run("import time; time.sleep(0.123)")["duration_seconds"].get<double>();
  EXPECT_GE(seconds, 0.12);
  EXPECT_DOUBLE_EQ(seconds * 100, std::round(seconds * 100));
}

TEST(ExecuteCode, BlankCodeIsRefused) {
  ExecHarness h;
  EXPECT_EQ(h.run("  \n\t"), Json::parse(R"({"error":"No code provided."})"));
  EXPECT_EQ(h.call("execute_code", Json::object()),
            Json::parse(R"({"error":"No code provided."})"));
  EXPECT_EQ(h.call("execute_code", {{"code", 5}}), Json::parse(R"({"error":"No code provided."})"));
}

TEST(ExecuteCode, NonZeroExitCarriesStderr) {
  ExecHarness h;
  Json result = h.run("print('partial')\nraise ValueError('bad input')");
  EXPECT_EQ(result["status"], "error");
  std::string error = result["error"];
  EXPECT_NE(error.find("Traceback"), std::string::npos);
  EXPECT_NE(error.find("ValueError: bad input"), std::string::npos);
  EXPECT_EQ(output_of(result), "partial\n\n--- stderr ---\n" + error);
}

TEST(ExecuteCode, ExitCodeWithoutStderr) {
  ExecHarness h;
  Json result = h.run("print('x')\nimport sys; sys.exit(3)");
  EXPECT_EQ(result["status"], "error");
  EXPECT_EQ(result["error"], "Script exited with code 3");
  EXPECT_EQ(result["output"], "x\n");
}

TEST(ExecuteCode, StdoutOverCapKeepsHeadAndTailWithMarker) {
  ExecHarness h;
  Json result = h.run("import sys\nsys.stdout.write('H' * 20000 + 'm' * 9950000 + 'T' * 30000)");
  EXPECT_EQ(result["status"], "success");
  std::string out = output_of(result);
  std::string marker =
      "\n\n... [OUTPUT TRUNCATED - 9,950,000 chars omitted out of 10,000,000 total] ...\n\n";
  EXPECT_EQ(out, std::string(20000, 'H') + marker + std::string(30000, 'T'));
  EXPECT_EQ(result["stdout_truncated"], true);
  EXPECT_EQ(result["stdout_bytes_total"], 10000000);
  EXPECT_EQ(result["stdout_bytes_captured"], 50000);
  EXPECT_EQ(result["stdout_bytes_omitted"], 9950000);
  std::string spill = result["stdout_spill_path"];
  EXPECT_NE(result["warning"].get<std::string>().find(spill), std::string::npos);
  EXPECT_EQ(std::filesystem::file_size(spill),
            5000000u + std::string(marker).size() + 30000u)  // same-width counts
      << spill;
}

TEST(ExecuteCode, StdoutAtCapIsWhole) {
  ExecHarness h;
  Json result =
      h.run("import sys\nsys.stdout.write(''.join(chr(97 + i % 26) for i in range(50000)))");
  std::string expected;
  for (int i = 0; i < 50000; ++i) expected += static_cast<char>('a' + i % 26);
  EXPECT_EQ(output_of(result), expected);
}

TEST(ExecuteCode, StderrIsCappedAt10000Bytes) {
  ExecHarness h;
  Json result = h.run("import sys\nsys.stderr.write('e' * 50000)\nsys.exit(1)");
  EXPECT_EQ(result["error"], std::string(10000, 'e'));
}

TEST(ExecuteCode, OutputIsUtf8AnsiFreeAndRedacted) {
  ExecHarness h;
  Json result = h.run(
      "import sys\n"
      "sys.stdout.buffer.write(b'bad\\xff byte\\n')\n"
      "sys.stdout.flush()\n"
      "print('\\x1b[31mred\\x1b[0m é')\n"
      "print('key: sk-proj-' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6')");
  std::string out = output_of(result);
  EXPECT_NE(out.find("bad\xEF\xBF\xBD byte\n"), std::string::npos) << out;
  EXPECT_NE(out.find("red \xC3\xA9\n"), std::string::npos) << out;
  EXPECT_EQ(out.find("\x1b"), std::string::npos);
  EXPECT_EQ(out.find("a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6"), std::string::npos) << out;
}

TEST(ExecuteCode, TimeoutKillsTheScript) {
  ExecHarness h(kPerCallTimeout1);
  Json result = h.run("import time\nprint('before', flush=True)\ntime.sleep(60)");
  EXPECT_EQ(result["status"], "timeout");
  EXPECT_EQ(result["error"], "Script timed out after 1s and was killed.");
  EXPECT_EQ(result["output"], "before\n\n\n⏰ Script timed out after 1s and was killed.");
  EXPECT_LT(result["duration_seconds"].get<double>(), 5.0);
}

TEST(ExecuteCode, TimeoutWithNoOutputIsJustTheLine) {
  ExecHarness h(kPerCallTimeout1);
  Json result = h.run("while True: pass");
  EXPECT_EQ(result["output"], "⏰ Script timed out after 1s and was killed.");
}

TEST(ExecuteCode, ProjectModeRunsInTheSessionDirectory) {
  ExecHarness h;
  h.work().write("data.txt", "from project\n");
  Json result = h.run("import os\nprint(os.getcwd())\nprint(open('data.txt').read(), end='')");
  EXPECT_EQ(output_of(result), h.work().path() + "\nfrom project\n");
}

TEST(ExecuteCode, StrictModeRunsInStagingAndCleansUp) {
  ExecHarness h("code_execution:\n  mode: strict\n  kernel: false\n");
  Json result = h.run(
      "import os, hermes_tools\nprint(os.getcwd())\n"
      "print(os.path.dirname(hermes_tools.__file__))\n"
      "print(os.environ['HERMES_RPC_SOCKET'])");
  std::vector<std::string> lines = split(output_of(result), '\n');
  ASSERT_EQ(lines.size(), 3u) << result.dump();
  EXPECT_EQ(lines[0].rfind("/tmp/hermes_sandbox_", 0), 0u) << lines[0];
  EXPECT_EQ(lines[1], lines[0]);
  EXPECT_EQ(lines[2].rfind(lines[0] + "/hermes_rpc_", 0), 0u);
  EXPECT_FALSE(std::filesystem::exists(lines[0]));  // staging and socket removed
}

TEST(ExecuteCode, BadModeFallsBackToProject) {
  ExecHarness h("code_execution:\n  mode: sideways\n");
  EXPECT_EQ(output_of(h.run("import os; print(os.getcwd())")), h.work().path() + "\n");
}

TEST(ExecuteCode, ScriptReadsThroughTheModule) {
  ExecHarness h;
  h.work().write("notes.txt", "alpha\nbeta\ngamma\n");
  Json result = h.run(
      "from hermes_tools import read_file\n"
      "r = read_file('notes.txt')\n"
      "print(type(r).__name__, r['total_lines'], r['content'].splitlines()[1])");
  EXPECT_EQ(result["status"], "success") << result.dump();
  EXPECT_EQ(output_of(result), "dict 3 2|beta\n");
  EXPECT_EQ(result["tool_calls_made"], 1);
}

TEST(ExecuteCode, ReadsWritesAndRunsTerminalPrintingOnlyASummary) {
  ExecHarness h;
  for (int i = 0; i < 5; ++i) h.work().write("src/f" + std::to_string(i) + ".txt", "x\ny\n");
  Json result = h.run(
      "from hermes_tools import read_file, terminal\n"
      "total = 0\n"
      "for i in range(5):\n"
      "    total += read_file(f'src/f{i}.txt')['total_lines']\n"
      "listing = terminal('ls src | wc -l')\n"
      "print(f\"lines={total} files={listing['output'].strip()} exit={listing['exit_code']}\")");
  EXPECT_EQ(output_of(result), "lines=10 files=5 exit=0\n") << result.dump();
  EXPECT_EQ(result["tool_calls_made"], 6);
}

TEST(ExecuteCode, DisallowedImportFailsInTheChild) {
  ExecHarness h;
  Json result = h.run("from hermes_tools import execute_code");
  EXPECT_EQ(result["status"], "error");
  EXPECT_NE(result["error"].get<std::string>().find("ImportError"), std::string::npos);
}

TEST(ExecuteCode, HelpersWork) {
  ExecHarness h;
  Json result = h.run(
      "from hermes_tools import json_parse, shell_quote, retry\n"
      "print(json_parse('\\ufeff{\"a\": \"x\\ty\"}')['a'] == 'x\\ty')\n"
      "print(shell_quote(\"it's\"))\n"
      "n = [0]\n"
      "def flaky():\n"
      "    n[0] += 1\n"
      "    if n[0] < 3: raise OSError('again')\n"
      "    return n[0]\n"
      "print(retry(flaky, delay=0))\n"
      "try:\n"
      "    retry(lambda: 1 / 0, max_attempts=2, delay=0)\n"
      "except ZeroDivisionError:\n"
      "    print('reraised')");
  EXPECT_EQ(output_of(result), "True\n'it'\"'\"'s'\n3\nreraised\n") << result.dump();
}

}  // namespace
}  // namespace hermes::testing
