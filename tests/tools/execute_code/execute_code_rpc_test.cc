// SPDX-License-Identifier: MIT
// execute_code's tool calls and hostile scripts: budget, refused tools, bad
// arguments, garbage and wrong tokens on the socket, threads, interruption,
// escaped daemons, and the registry-driven module and description.
#include <gtest/gtest.h>

#include <signal.h>

#include <atomic>
#include <future>
#include <thread>

#include "exec_harness.h"

namespace hermes::testing {
namespace {

// A fake `web_search` that echoes its arguments and records the session.
struct EchoSearch {
  std::atomic<int> calls{0};
  std::atomic<registry::Session*> session{nullptr};
  FakeTool tool() {
    return {"web_search", "web", query_schema(),
            [this](const Json& args, registry::CallContext& ctx) {
              ++calls;
              session = &ctx.session;
              return Json{{"echo", args}};
            }};
  }
};

TEST(ExecuteCodeRpc, FakeToolAppearsFromItsSchema) {
  EchoSearch search;
  ExecHarness h("", {search.tool()});
  Json result = h.run(
      "from hermes_tools import web_search\n"
      "print(web_search('q')['echo'])\n"
      "print(web_search('r', limit=2)['echo'])");
  EXPECT_EQ(result["output"], "{'query': 'q', 'limit': 5}\n{'query': 'r', 'limit': 2}\n")
      << result.dump();
  EXPECT_EQ(search.session.load(), &h.session());  // the parent's session
}

TEST(ExecuteCodeRpc, ReadStampsLandInTheParentSession) {
  ExecHarness h;
  h.work().write("existing.txt", "hello\n");
  Json write = {{"path", "existing.txt"}, {"content", "x\n"}};
  EXPECT_EQ(h.call("write_file", write)["stale_write_blocked"], true);
  EXPECT_EQ(h.run("from hermes_tools import read_file\nread_file('existing.txt')")["status"],
            "success");
  Json written = h.call("write_file", write);  // outside the script, same session
  EXPECT_FALSE(written.contains("error")) << written.dump();
  EXPECT_EQ(h.work().read("existing.txt"), "x\n");
}

TEST(ExecuteCodeRpc, NoneArgumentsReachTheToolAsAbsent) {
  EchoSearch search;
  ExecHarness h("", {search.tool()});
  Json result =
      h.run("from hermes_tools import web_search\nprint(web_search('q', limit=None)['echo'])");
  EXPECT_EQ(result["output"], "{'query': 'q'}\n");
}

TEST(ExecuteCodeRpc, BudgetCountsDispatchedCallsAndTheScriptLivesOn) {
  EchoSearch search;
  ExecHarness h("code_execution:\n  max_tool_calls: 3\n", {search.tool()});
  Json result = h.run(
      "from hermes_tools import web_search\n"
      "for i in range(5):\n"
      "    print(web_search(str(i)).get('error', 'ok'))\n"
      "print('done')");
  EXPECT_EQ(result["status"], "success");
  EXPECT_EQ(result["output"],
            "ok\nok\nok\n"
            "Tool call limit reached (3). No more tool calls allowed in this execution.\n"
            "Tool call limit reached (3). No more tool calls allowed in this execution.\n"
            "done\n");
  EXPECT_EQ(result["tool_calls_made"], 3);
  EXPECT_EQ(search.calls, 3);
}

TEST(ExecuteCodeRpc, BadArgumentsGiveTheToolsErrorAndCount) {
  ExecHarness h;
  Json result = h.run(
      "from hermes_tools import read_file\n"
      "print(read_file(None))\n"
      "print(read_file('missing.txt')['error'].startswith('File not found'))");
  EXPECT_EQ(result["output"], "{'error': 'path is required'}\nTrue\n") << result.dump();
  EXPECT_EQ(result["tool_calls_made"], 2);
}

// Raw socket access from the script, as a hostile script would do it.
constexpr const char* kRawClient =
    "import os, socket, json\n"
    "def raw(payload):\n"
    "    s = socket.socket(socket.AF_UNIX)\n"
    "    s.connect(os.environ['HERMES_RPC_SOCKET'])\n"
    "    s.sendall(payload)\n"
    "    data = b''\n"
    "    while not data.endswith(b'\\n'):\n"
    "        chunk = s.recv(4096)\n"
    "        if not chunk: break\n"
    "        data += chunk\n"
    "    s.close()\n"
    "    return data.decode()\n";

TEST(ExecuteCodeRpc, GarbageAndWrongTokensAreRefusedAndFree) {
  EchoSearch search;
  ExecHarness h("", {search.tool()});
  Json result = h.run(std::string(kRawClient) +
                      "print(raw(b'\\x00\\x01garbage\\n')[:30])\n"
                      "print(raw(json.dumps({'tool': 'web_search', 'args': {'query': 'x'}, "
                      "'token': 'f' * 32}).encode() + b'\\n'), end='')\n"
                      "print(raw(json.dumps({'tool': 'web_search', 'args': {'query': "
                      "'x'}}).encode() + b'\\n'), end='')\n"
                      "from hermes_tools import web_search\n"
                      "print(web_search('still works')['echo']['query'])");
  EXPECT_EQ(result["output"],
            "{\"error\":\"Invalid RPC request:\n"  // cut to 30 chars by the script
            "{\"error\":\"Unauthorized RPC request\"}\n"
            "{\"error\":\"Unauthorized RPC request\"}\n"
            "still works\n")
      << result.dump();
  EXPECT_EQ(result["tool_calls_made"], 1);
  EXPECT_EQ(search.calls, 1);
}

TEST(ExecuteCodeRpc, UnknownToolIsRefusedWithTheAvailableList) {
  EchoSearch search;
  ExecHarness h(
      "", {search.tool(), FakeTool{"delegate_task", "task", query_schema(),
                                   [](const Json&, registry::CallContext&) { return Json{}; }}});
  Json result = h.run(std::string(kRawClient) +
                      "t = os.environ['HERMES_RPC_TOKEN']\n"
                      "print(raw(json.dumps({'tool': 'delegate_task', 'args': {}, 'token': "
                      "t}).encode() + b'\\n'), end='')");
  EXPECT_EQ(result["output"],
            "{\"error\":\"Tool 'delegate_task' is not available in execute_code. "
            "Available: read_file, terminal, web_search, write_file\"}\n");
  EXPECT_EQ(result["tool_calls_made"], 0);
}

TEST(ExecuteCodeRpc, TerminalLosesBackgroundArguments) {
  Json seen;
  FakeTool terminal{"terminal", "terminal", Json::parse(R"({"type":"object","properties":{
                        "command":{"type":"string"},"background":{"type":"boolean"},
                        "timeout":{"type":"integer"},"pty":{"type":"boolean"},
                        "notify_on_complete":{"type":"boolean"},"workdir":{"type":"string"}},
                        "required":["command"]})"),
                    [&seen](const Json& args, registry::CallContext&) {
                      seen = args;
                      return Json{{"output", ""}, {"exit_code", 0}};
                    }};
  ExecHarness h("", {terminal});
  Json result = h.run(std::string(kRawClient) +
                      "import inspect\n"
                      "from hermes_tools import terminal\n"
                      "print(list(inspect.signature(terminal).parameters))\n"
                      "t = os.environ['HERMES_RPC_TOKEN']\n"
                      "raw(json.dumps({'tool': 'terminal', 'token': t, 'args': {'command': 'ls',\n"
                      "    'background': True, 'pty': True, 'notify_on_complete': True, "
                      "'watch_patterns': ['x']}}).encode() + b'\\n')");
  EXPECT_EQ(result["output"], "['command', 'timeout', 'workdir']\n") << result.dump();
  EXPECT_EQ(seen, Json::parse(R"({"command":"ls"})"));
}

TEST(ExecuteCodeRpc, ThreadsNeverSwapAnswers) {
  EchoSearch search;
  ExecHarness h("code_execution:\n  max_tool_calls: 400\n", {search.tool()});
  Json result = h.run(
      "import threading\n"
      "from hermes_tools import web_search\n"
      "bad = []\n"
      "def work(n):\n"
      "    for i in range(40):\n"
      "        q = f'{n}-{i}'\n"
      "        if web_search(q)['echo']['query'] != q: bad.append(q)\n"
      "ts = [threading.Thread(target=work, args=(n,)) for n in range(8)]\n"
      "[t.start() for t in ts]; [t.join() for t in ts]\n"
      "print(len(bad))");
  EXPECT_EQ(result["output"], "0\n") << result.dump();
  EXPECT_EQ(result["tool_calls_made"], 320);
}

}  // namespace
}  // namespace hermes::testing
