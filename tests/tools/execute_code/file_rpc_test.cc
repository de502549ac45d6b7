// SPDX-License-Identifier: MIT
// The pieces of the file RPC (docs/tools/execute_code.md) on their own: base64,
// the host's listing parser, and the generated file client driven by a
// Python script with nobody (or a fake host) answering.
#include "core/base64.h"
#include "proc/run.h"
#include "proc/spawn.h"
#include "testutil/temp_dir.h"
#include "tools/execute_code/file_rpc_host.h"
#include "tools/execute_code/interpreter.h"
#include "tools/execute_code/remote_run.h"
#include "tools/execute_code/stub_module.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <thread>

namespace hermes::execute_code {
namespace {

TEST(Base64, RoundTripsEveryLengthAndByte) {
  std::string bytes;
  for (int i = 0; i < 256; ++i) bytes += static_cast<char>(i);
  for (size_t n = 0; n <= 7; ++n) {
    std::string part = bytes.substr(250 - n * 30, n);
    EXPECT_EQ(base64_decode(base64_encode(part)), part) << n;
  }
  EXPECT_EQ(base64_decode(base64_encode(bytes)), bytes);
  EXPECT_EQ(base64_encode("foobar"), "Zm9vYmFy");
  EXPECT_EQ(base64_encode("fooba"), "Zm9vYmE=");
  EXPECT_EQ(base64_encode("foob"), "Zm9vYg==");
}

TEST(Base64, RejectsWhatBase64DoesNotPrint) {
  EXPECT_EQ(base64_decode("Zm9vY"), std::nullopt);
  EXPECT_EQ(base64_decode("Zm9v!mFy"), std::nullopt);
  EXPECT_EQ(base64_decode("Zm=vYmFy"), std::nullopt);
  EXPECT_EQ(base64_decode("Zm9vYg=a"), std::nullopt);
  EXPECT_EQ(base64_decode(""), "");
}

TEST(FileRpcListing, PairsNamesWithDecodedBodies) {
  std::string listing = "req_000001\n" + base64_encode("{\"tool\":\"a\"}") + "\n" + "req_000002\n" +
                        base64_encode("line1\nline2") + "\n";
  std::vector<PendingRequest> requests = parse_listing(listing);
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].seq, "000001");
  EXPECT_EQ(requests[0].body, "{\"tool\":\"a\"}");
  EXPECT_EQ(requests[1].seq, "000002");
  EXPECT_EQ(requests[1].body, "line1\nline2");
}

TEST(FileRpcListing, SkipsForeignNamesBrokenBase64AndATruncatedTail) {
  std::string listing = "req_$(reboot)\n" + base64_encode("{}") + "\n" + "req_000003\n!!!\n" +
                        "req_000004\n" + base64_encode("{}") + "\n" + "req_000005\n";
  std::vector<PendingRequest> requests = parse_listing(listing);
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].seq, "000004");
}

// Runs `code` with the file-transport module importable and HERMES_RPC_DIR
// set to `rpc_dir`; returns what it printed.
std::string run_python(const std::string& module_dir, const std::string& rpc_dir,
                       const std::string& code) {
  auto child = proc::spawn(
      proc::SpawnOptions{.argv = {system_python(), "-c",
                                  "import os, sys; os.environ['HERMES_RPC_DIR'] = sys.argv[2]; "
                                  "sys.path.insert(0, sys.argv[1])\n" +
                                      code,
                                  module_dir, rpc_dir}});
  EXPECT_TRUE(child);
  if (!child) return "";
  std::string out;
  proc::run_bounded(*child, proc::RunLimits{.timeout = std::chrono::seconds(20)}, {},
                    [&](std::string_view bytes) { out += bytes; });
  return out;
}

std::string file_module() {
  return generate_module({StubSignature{"ping", {{"n", "int", ""}}}}, RpcTransport::kFiles);
}

TEST(FileRpcClient, WritesNumberedRequestsAndReadsThenDeletesResponses) {
  hermes::testing::TempDir dir;
  dir.write("m/hermes_tools.py", file_module());
  dir.write("rpc/.keep", "");
  // A fake host on a thread of the script: answers each request by number.
  std::string out = run_python(dir.file("m"), dir.file("rpc"), R"PY(
import threading, time, json
import hermes_tools
rpc = os.environ['HERMES_RPC_DIR']
seen = []
def host():
    answered = 0
    while answered < 2:
        for name in sorted(os.listdir(rpc)):
            if name.startswith('req_') and not name.endswith('.tmp'):
                body = json.load(open(os.path.join(rpc, name)))
                seen.append((name, body))
                os.remove(os.path.join(rpc, name))
                with open(os.path.join(rpc, 'res_' + name[4:]), 'w') as f:
                    f.write(json.dumps({'n': body['args']['n'] * 10}) + '\n')
                answered += 1
        time.sleep(0.01)
threading.Thread(target=host, daemon=True).start()
print(hermes_tools.ping(1), hermes_tools.ping(2))
print(seen)
print(sorted(n for n in os.listdir(rpc) if n != '.keep'))
)PY");
  EXPECT_EQ(out,
            "{'n': 10} {'n': 20}\n"
            "[('req_000001', {'tool': 'ping', 'args': {'n': 1}}), "
            "('req_000002', {'tool': 'ping', 'args': {'n': 2}})]\n"
            "[]\n");
}

TEST(FileRpcClient, GivesUpWithTheTimeoutMessage) {
  hermes::testing::TempDir dir;
  dir.write("m/hermes_tools.py", file_module());
  dir.write("rpc/.keep", "");
  auto start = std::chrono::steady_clock::now();
  std::string out = run_python(dir.file("m"), dir.file("rpc"), R"PY(
import hermes_tools
hermes_tools._RPC_TIMEOUT = 1
try:
    hermes_tools.ping(1)
except RuntimeError as e:
    print(e)
)PY");
  EXPECT_EQ(out, "RPC timeout: no response for ping after 1s\n");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_NE(file_module().find("_RPC_TIMEOUT = 300\n"), std::string::npos);
}

// Runs `script` with bash and waits for it.
void run_bash_script(const std::string& script) {
  auto child = proc::spawn(proc::SpawnOptions{.argv = {"bash", "-c", script}});
  ASSERT_TRUE(child);
  proc::run_bounded(*child, proc::RunLimits{.timeout = std::chrono::seconds(10)}, {},
                    [](std::string_view) {});
}

bool wait_for_file(const std::string& path) {
  for (int i = 0; i < 200 && !std::filesystem::exists(path); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return std::filesystem::exists(path);
}

TEST(RemoteCleanup, KillsTheRecordedScriptTreeAndRemovesTheDirectory) {
  hermes::testing::TempDir base;
  std::string dir = base.file("hermes_exec_0123456789ab");
  std::filesystem::create_directories(dir + "/rpc");
  // What the run command does, with a sleeping child instead of python3.
  auto run = proc::spawn(proc::SpawnOptions{
      .argv = {"bash", "-c",
               "cd '" + dir + "' && HERMES_RPC_DIR='" + dir +
                   "/rpc' "
                   "sh -c 'echo \"$PPID $$\" > pids && exec sleep 60'\necho survived"}});
  ASSERT_TRUE(run);
  ASSERT_TRUE(wait_for_file(dir + "/pids"));
  run_bash_script(cleanup_script(dir));
  std::string out;
  auto start = std::chrono::steady_clock::now();
  proc::RunOutcome ended =
      proc::run_bounded(*run, proc::RunLimits{.timeout = std::chrono::seconds(10)}, {},
                        [&](std::string_view bytes) { out += bytes; });
  EXPECT_EQ(ended.end, proc::RunEnd::kExited);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_EQ(out, "");  // the shell died with its group, not just the sleep
  EXPECT_FALSE(std::filesystem::exists(dir));
}

TEST(RemoteCleanup, LeavesAProcessWithoutTheRunsEnvironmentAlone) {
  hermes::testing::TempDir base;
  std::string dir = base.file("hermes_exec_0123456789ab");
  std::filesystem::create_directories(dir + "/rpc");
  auto other = proc::spawn(proc::SpawnOptions{.argv = {"sleep", "60"}});
  ASSERT_TRUE(other);
  base.write("hermes_exec_0123456789ab/pids", "1 " + std::to_string(other->pid()) + "\n");
  run_bash_script(cleanup_script(dir));
  EXPECT_FALSE(std::filesystem::exists(dir));
  proc::RunOutcome still =
      proc::run_bounded(*other, proc::RunLimits{.timeout = std::chrono::milliseconds(300)}, {},
                        [](std::string_view) {});
  EXPECT_EQ(still.end, proc::RunEnd::kTimedOut);  // alive until the test's own limit
}

}  // namespace
}  // namespace hermes::execute_code
