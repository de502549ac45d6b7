// SPDX-License-Identifier: MIT
// execute_code through the file RPC (docs/tools/execute_code.md): on the local
// backend with `terminal.portable_files` (every step a bash command, as on a
// remote target) and once in the bubblewrap sandbox. Result shapes must match
// the local run's; nothing may be left behind on either side.
#include "testutil/scoped_env.h"
#include "testutil/scoped_shell_path.h"

#include <gtest/gtest.h>

#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <future>
#include <optional>
#include <thread>

#include "exec_harness.h"

namespace hermes::testing {
namespace {

namespace fs = std::filesystem;

// The per-call script: the file RPC is what these tests are about (the
// kernel over the backend's stream is execute_code_stream_kernel_test.cc).
constexpr const char* kPortable =
    "terminal:\n  portable_files: true\ncode_execution:\n  kernel: false\n";

// TMPDIR (the portable backend's temp_dir and the local staging base) is a
// fresh directory, so whatever a run leaves there is visible.
class RemoteExec : public ::testing::Test {
 protected:
  // hermes_exec_* (the file RPC) and hermes_sandbox_* (a local staging the
  // run must not have used) anywhere under TMPDIR.
  std::vector<std::string> leftovers() const {
    std::vector<std::string> found;
    for (const auto& entry : fs::recursive_directory_iterator(tmp_.path())) {
      std::string name = entry.path().filename().string();
      if (name.starts_with("hermes_exec_") || name.starts_with("hermes_sandbox_")) {
        found.push_back(entry.path().string());
      }
    }
    return found;
  }

  TempDir tmp_;
  ScopedEnv tmpdir_{"TMPDIR", tmp_.path()};
};

std::string output_of(const Json& result) { return result.value("output", ""); }

std::vector<std::string> keys_of(const Json& result) {
  std::vector<std::string> keys;
  for (const auto& [key, value] : result.items()) keys.push_back(key);
  return keys;
}

TEST_F(RemoteExec, PrintsWhatTheScriptPrintsInTheLocalShape) {
  ExecHarness h(kPortable);
  Json result = h.run(
      "import os\nprint('hello')\nprint(6 * 7)\n"
      "rpc = os.environ['HERMES_RPC_DIR']\n"
      "print(os.path.basename(os.path.dirname(rpc))[:12], os.path.basename(rpc))\n"
      "print(oct(os.stat(os.path.dirname(rpc)).st_mode & 0o777), os.getcwd() == "
      "os.path.dirname(rpc))\n"
      "print(sorted(os.listdir('.')))");
  EXPECT_EQ(result["status"], "success") << result.dump();
  EXPECT_EQ(
      result["output"],
      "hello\n42\nhermes_exec_ rpc\n0o700 True\n['hermes_tools.py', 'pids', 'rpc', 'script.py']\n");
  EXPECT_EQ(result["tool_calls_made"], 0);
  EXPECT_EQ(keys_of(result),
            (std::vector<std::string>{"status", "output", "tool_calls_made", "duration_seconds"}));
  EXPECT_EQ(leftovers(), std::vector<std::string>{});
}

TEST_F(RemoteExec, ReadsWritesAndRunsTerminalThroughTheFiles) {
  ExecHarness h(kPortable);
  for (int i = 0; i < 3; ++i) h.work().write("src/f" + std::to_string(i) + ".txt", "x\ny\n");
  Json result = h.run(
      "from hermes_tools import read_file, write_file, terminal\n"
      "total = sum(read_file(f'src/f{i}.txt')['total_lines'] for i in range(3))\n"
      "w = write_file('out/summary.txt', f'total={total}\\n')\n"
      "listing = terminal('ls src | wc -l')\n"
      "print(f\"lines={total} wrote={w.get('bytes_written')} \"\n"
      "      f\"files={listing['output'].strip()} exit={listing['exit_code']}\")");
  EXPECT_EQ(output_of(result), "lines=6 wrote=8 files=3 exit=0\n") << result.dump();
  EXPECT_EQ(result["tool_calls_made"], 5);
  EXPECT_EQ(h.work().read("out/summary.txt"), "total=6\n");
  EXPECT_EQ(leftovers(), std::vector<std::string>{});
}

// A fake `web_search` echoing its arguments.
FakeTool echo_search(std::atomic<int>& calls) {
  return {"web_search", "web", query_schema(), [&calls](const Json& args, registry::CallContext&) {
            ++calls;
            return Json{{"echo", args}};
          }};
}

TEST_F(RemoteExec, BudgetCountsDispatchedCallsAndTheScriptLivesOn) {
  std::atomic<int> calls{0};
  ExecHarness h(std::string(kPortable) + "  max_tool_calls: 2\n", {echo_search(calls)});
  Json result = h.run(
      "from hermes_tools import web_search\n"
      "for i in range(3):\n"
      "    print(web_search(str(i)).get('error', 'ok'))\n"
      "print(web_search.__module__, 'done')");
  EXPECT_EQ(result["status"], "success");
  EXPECT_EQ(result["output"],
            "ok\nok\n"
            "Tool call limit reached (2). No more tool calls allowed in this execution.\n"
            "hermes_tools done\n");
  EXPECT_EQ(result["tool_calls_made"], 2);
  EXPECT_EQ(calls, 2);
}

TEST_F(RemoteExec, ThreadsNeverSwapAnswers) {
  std::atomic<int> calls{0};
  ExecHarness h(kPortable, {echo_search(calls)});
  Json result = h.run(
      "import threading\n"
      "from hermes_tools import web_search\n"
      "bad = []\n"
      "def work(n):\n"
      "    for i in range(3):\n"
      "        q = f'{n}-{i}'\n"
      "        if web_search(q)['echo']['query'] != q: bad.append(q)\n"
      "ts = [threading.Thread(target=work, args=(n,)) for n in range(3)]\n"
      "[t.start() for t in ts]; [t.join() for t in ts]\n"
      "print(len(bad))");
  EXPECT_EQ(result["output"], "0\n") << result.dump();
  EXPECT_EQ(result["tool_calls_made"], 9);
}

TEST_F(RemoteExec, BadJsonIsDeletedUnansweredAndABadRequestIsAnswered) {
  std::atomic<int> calls{0};
  ExecHarness h(kPortable, {echo_search(calls)});
  Json result = h.run(
      "import os, time\n"
      "from hermes_tools import web_search\n"
      "rpc = os.environ['HERMES_RPC_DIR']\n"
      "open(os.path.join(rpc, 'req_000900'), 'w').write('{not json')\n"
      "open(os.path.join(rpc, 'req_000901'), 'w').write('[1, 2]')\n"
      "for _ in range(100):\n"
      "    if sorted(os.listdir(rpc)) == ['res_000901']: break\n"
      "    time.sleep(0.05)\n"
      "print(sorted(os.listdir(rpc)))\n"
      "print(open(os.path.join(rpc, 'res_000901')).read(), end='')\n"
      "print(web_search('still works')['echo']['query'])");
  EXPECT_EQ(output_of(result),
            "['res_000901']\n"
            "{\"error\":\"Invalid RPC request: request is not a JSON object\"}\n"
            "still works\n")
      << result.dump();
  EXPECT_EQ(result["tool_calls_made"], 1);
}

TEST_F(RemoteExec, LoneSurrogatesAreRefusedInsteadOfHanging) {
  std::atomic<int> calls{0};
  ExecHarness h(kPortable, {echo_search(calls)});
  Json result = h.run(
      "from hermes_tools import web_search\n"
      "print(web_search('bad\\udc80')['error'][:40])\n"
      "print(web_search('fine \\U0001F600')['echo']['query'])");
  EXPECT_EQ(output_of(result), "Invalid RPC request: 'utf-8' codec can't\nfine \xF0\x9F\x98\x80\n")
      << result.dump();
  EXPECT_LT(result["duration_seconds"].get<double>(), 5.0);
  EXPECT_EQ(result["tool_calls_made"], 1);
}

TEST_F(RemoteExec, NonZeroExitCarriesStderrLikeLocal) {
  ExecHarness h(kPortable);
  Json result = h.run("print('x', flush=True)\nimport sys; sys.exit(3)");
  EXPECT_EQ(result["status"], "error");
  EXPECT_EQ(result["error"], "Script exited with code 3");
  EXPECT_EQ(result["output"], "x\n");
  // stderr kept apart, as in a local run.
  Json raised = h.run("print('partial')\nraise ValueError('bad input')");
  EXPECT_EQ(raised["status"], "error");
  std::string error = raised.value("error", "");
  EXPECT_EQ(error.rfind("Traceback", 0), 0u) << error;
  EXPECT_NE(error.find("ValueError: bad input"), std::string::npos);
  EXPECT_EQ(output_of(raised), "partial\n\n--- stderr ---\n" + error);
  EXPECT_EQ(leftovers(), std::vector<std::string>{});
}

// True once `pid` is gone or a zombie (killed, not yet reaped by init),
// within two seconds.
bool process_ends(pid_t pid) {
  for (int i = 0; i < 200; ++i) {
    if (::kill(pid, 0) != 0) return true;
    std::ifstream file("/proc/" + std::to_string(pid) + "/stat");
    std::string stat((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    size_t close = stat.rfind(')');
    if (close != std::string::npos && stat.compare(close, 3, ") Z") == 0) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

TEST_F(RemoteExec, TimeoutKillsTheScriptAndRemovesTheDirectory) {
  ExecHarness h(std::string(kPortable) + "  timeout: 1\n");
  Json result = h.run("import os, time\nopen('" + h.work().file("pid") +
                      "', 'w').write(str(os.getpid()))\nprint('before', flush=True)\n"
                      "time.sleep(60)");
  EXPECT_EQ(result["status"], "timeout");
  EXPECT_EQ(result["error"], "Script timed out after 1s and was killed.");
  EXPECT_EQ(result["output"], "before\n\n\n⏰ Script timed out after 1s and was killed.");
  EXPECT_LT(result["duration_seconds"].get<double>(), 5.0);
  EXPECT_EQ(leftovers(), std::vector<std::string>{});
  EXPECT_TRUE(process_ends(std::stoi(h.work().read("pid")))) << "the script outlived its timeout";
}

TEST_F(RemoteExec, InterruptEndsTheRunAndATerminalCallInFlight) {
  ExecHarness h(kPortable);
  std::stop_source stop;
  std::string started = h.work().file("started");
  auto result = std::async(std::launch::async, [&] {
    return h.run(
        "from hermes_tools import terminal\nprint('started', flush=True)\n"
        "open('" +
            started + "', 'w').close()\nterminal('sleep 30')",
        stop.get_token());
  });
  // Interrupt once the script runs (its interpreter may take over a second
  // to start on a loaded machine) and its terminal call has begun.
  for (int i = 0; i < 2000 && !std::filesystem::exists(started); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  auto asked = std::chrono::steady_clock::now();
  stop.request_stop();
  Json json = result.get();
  EXPECT_LT(std::chrono::steady_clock::now() - asked, std::chrono::seconds(5));
  EXPECT_EQ(json["status"], "interrupted") << json.dump();
  EXPECT_EQ(json["output"], "started\n\n[execution interrupted — user sent a new message]");
  EXPECT_EQ(leftovers(), std::vector<std::string>{});
}

TEST_F(RemoteExec, StderrIsCappedAt10000Bytes) {
  ExecHarness h(kPortable);
  Json result = h.run("import sys\nsys.stderr.write('e' * 50000)\nsys.exit(1)");
  EXPECT_EQ(result["error"], std::string(10000, 'e'));
}

TEST_F(RemoteExec, StdoutOverCapIsCutAndSpilledLikeLocal) {
  ExecHarness h(kPortable);
  Json result = h.run("import sys\nsys.stdout.write('H' * 20000 + 'm' * 1950000 + 'T' * 30000)");
  EXPECT_EQ(result["status"], "success");
  std::string marker =
      "\n\n... [OUTPUT TRUNCATED - 1,950,000 chars omitted out of 2,000,000 total] ...\n\n";
  EXPECT_EQ(output_of(result), std::string(20000, 'H') + marker + std::string(30000, 'T'));
  EXPECT_EQ(result["stdout_bytes_total"], 2000000);
  EXPECT_EQ(result["stdout_bytes_omitted"], 1950000);
  EXPECT_EQ(fs::file_size(result["stdout_spill_path"].get<std::string>()), 2000000u);
}

TEST_F(RemoteExec, OutputIsAnsiFreeAndRedacted) {
  ExecHarness h(kPortable);
  Json result = h.run(
      "print('\\x1b[31mred\\x1b[0m é')\n"
      "print('key: sk-proj-' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6')");
  std::string out = output_of(result);
  EXPECT_NE(out.find("red \xC3\xA9\n"), std::string::npos) << out;
  EXPECT_EQ(out.find("\x1b"), std::string::npos);
  EXPECT_EQ(out.find("a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6"), std::string::npos) << out;
}

TEST_F(RemoteExec, TimezoneReachesTheScript) {
  ExecHarness h(std::string(kPortable) + "timezone: Asia/Tokyo\n");
  EXPECT_EQ(output_of(h.run("import os; print(os.environ.get('TZ'))")), "Asia/Tokyo\n");
}

TEST_F(RemoteExec, OnThisHostTheScrubStillApplies) {
  ScopedEnv secret("H3_TEST_API_KEY", "s3cr3t-value");
  ScopedEnv other("H3_TEST_PLAIN", "dropped-too");
  ExecHarness h(kPortable);
  Json result = h.run(
      "import os\n"
      "print(os.environ.get('H3_TEST_API_KEY'), os.environ.get('H3_TEST_PLAIN'),\n"
      "      'PATH' in os.environ)");
  EXPECT_EQ(output_of(result), "None None True\n") << result.dump();
}

TEST_F(RemoteExec, DescriptionSaysWhereScriptsRun) {
  ExecHarness h(kPortable);
  const registry::ToolSpec* spec = h.registry().find("execute_code", h.services());
  ASSERT_NE(spec, nullptr);
  std::string text = spec->describe(h.services(), "");
  EXPECT_NE(text.find("Scripts run with the terminal backend's python3, in a private "
                      "temporary directory on that machine"),
            std::string::npos)
      << text;
}

// A PATH directory with only `tools` (symlinks to the system's), so no
// python3 turns up through another directory.
std::string path_with_only(const TempDir& dir, const std::vector<std::string>& tools) {
  for (const std::string& tool : tools) {
    for (const char* base : {"/usr/bin/", "/bin/"}) {
      std::string target = std::string(base) + tool;
      if (::access(target.c_str(), X_OK) == 0) {
        fs::create_symlink(target, dir.file(tool));
        break;
      }
    }
  }
  return dir.path();
}

// A local shell that finds only `tools`.
class ShellWithOnly {
 public:
  explicit ShellWithOnly(const std::vector<std::string>& tools)
      : path_(path_with_only(bin_, tools)) {}

 private:
  TempDir bin_;
  ScopedShellPath path_;
};

TEST_F(RemoteExec, MissingPython3IsAClearErrorAndLeavesNothing) {
  ExecHarness h(kPortable);
  ShellWithOnly shell(
      {"bash", "sh", "cat", "mv", "rm", "mkdir", "awk", "base64", "tr", "ls", "env"});
  auto start = std::chrono::steady_clock::now();
  Json result = h.run("print(1)");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_EQ(result["status"], "error") << result.dump();
  EXPECT_EQ(result["error"],
            "Python 3 is not available in the local terminal environment. Install Python to "
            "use execute_code with remote backends.");
  EXPECT_EQ(result["tool_calls_made"], 0);
  EXPECT_EQ(leftovers(), std::vector<std::string>{});
}

TEST_F(RemoteExec, StagingFailureIsAnErrorAndLeavesNothing) {
  ExecHarness h(kPortable);
  ShellWithOnly shell({"bash", "python3", "mkdir", "rm"});
  Json result = h.run("print(1)");
  EXPECT_EQ(result["status"], "error") << result.dump();
  std::string error = result.value("error", "");
  EXPECT_EQ(error.rfind("Could not stage the script in the local terminal environment: ", 0), 0u)
      << error;
  EXPECT_NE(error.find("awk"), std::string::npos) << error;
  EXPECT_EQ(leftovers(), std::vector<std::string>{});
}

// The sandbox backend: bubblewrap with a private /tmp under TMPDIR.
TEST_F(RemoteExec, RunsInTheBubblewrapSandbox) {
  if (::access("/usr/bin/bwrap", X_OK) != 0) GTEST_SKIP() << "no bubblewrap";
  TempDir workspace;
  workspace.write("data.txt", "one\ntwo\n");
  ExecHarness h(std::string(kPerCall) +
                "terminal:\n  backend: sandbox\n  sandbox_workspace: " + workspace.path() + "\n");
  h.session().set_cwd(workspace.path());
  Json result = h.run(
      "import os\n"
      "from hermes_tools import read_file, terminal\n"
      "print(os.environ['HERMES_RPC_DIR'].startswith('/tmp/hermes_exec_'))\n"
      "print(read_file('data.txt')['total_lines'])\n"
      "print(terminal('echo hi')['output'].strip())");
  EXPECT_EQ(result["status"], "success") << result.dump();
  EXPECT_EQ(output_of(result), "True\n2\nhi\n");
  EXPECT_EQ(result["tool_calls_made"], 2);
  EXPECT_EQ(leftovers(), std::vector<std::string>{});
}

}  // namespace
}  // namespace hermes::testing
