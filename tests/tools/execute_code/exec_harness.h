// SPDX-License-Identifier: MIT
// Runs execute_code in a real session with a test config, the real
// read_file, write_file and terminal tools, and fake tools the tests register.
#pragma once

#include "registry/registry.h"
#include "testutil/tool_session.h"
#include "tools/execute_code/execute_code.h"
#include "tools/read_file/read_file.h"
#include "tools/terminal/terminal.h"
#include "tools/write_file/write_file.h"

#include <algorithm>
#include <csignal>
#include <functional>
#include <future>
#include <string>

namespace hermes {
namespace testing {

// A tool defined by the test: `handler` sees every dispatched call and
// answers with its result (never a failure).
struct FakeTool {
  std::string name;
  std::string toolset = "file";
  Json schema;
  std::function<Json(const Json& args, registry::CallContext& ctx)> handler;
};

class ExecHarness : public ToolSession {
 public:
  explicit ExecHarness(const std::string& yaml = "", const std::vector<FakeTool>& fakes = {})
      : ToolSession(yaml) {
    // A fake named like a real tool replaces it.
    auto faked = [&](const std::string& name) {
      return std::any_of(fakes.begin(), fakes.end(),
                         [&](const FakeTool& fake) { return fake.name == name; });
    };
    if (!faked("read_file")) read_file::register_read_file(registry());
    if (!faked("terminal")) terminal::register_terminal(registry());
    if (!faked("write_file")) write_file::register_write_file(registry());
    for (const FakeTool& fake : fakes) {
      registry().add(registry::ToolSpec{
          .name = fake.name,
          .toolset = fake.toolset,
          .description = "Fake " + fake.name + ". For tests.",
          .input_schema = fake.schema,
          .run = [handler = fake.handler](const Json& args, registry::CallContext& ctx) {
            return registry::ToolReply{handler(args, ctx)};
          }});
    }
    execute_code::register_execute_code(registry());
    // The server ignores SIGPIPE (cli/main.cc), and so must the test process:
    // a backend command that exits before reading its stdin (the file RPC's
    // python3 preflight) would otherwise kill it.
    std::signal(SIGPIPE, SIG_IGN);
  }

  // Runs `code` through execute_code and returns the result JSON.
  Json run(const std::string& code, std::stop_token stop = {}) {
    return run_result(code, stop).value;
  }
  // The whole result, with isError and the failure's code.
  registry::ToolCallResult run_result(const std::string& code, std::stop_token stop = {}) {
    return call_result("execute_code", Json{{"code", code}}, stop);
  }
};

// The per-call interpreter instead of the session's kernel
// (docs/tools/execute_code.md), for what only it does: a fresh process and
// staging directory per call, SIGTERM at the deadline, calls of one session
// side by side.
inline constexpr const char* kPerCall = "code_execution:\n  kernel: false\n";
inline constexpr const char* kPerCallTimeout1 = "code_execution:\n  kernel: false\n  timeout: 1\n";

// `{"type":"object","properties":{"query":{"type":"string"},"limit":{"type":"integer","default":5}},"required":["query"]}`
inline Json query_schema() {
  return Json::parse(R"({"type":"object","properties":{
      "query":{"type":"string"},"limit":{"type":"integer","default":5}},
      "required":["query"]})");
}

// A fake tool that tells the test the script reached it, then answers.
struct Rendezvous {
  std::promise<void> reached;
  std::shared_future<void> release;
  FakeTool tool() {
    return {"web_search", "web", query_schema(), [this](const Json&, registry::CallContext&) {
              reached.set_value();
              if (release.valid()) release.wait();
              return Json{{"ok", true}};
            }};
  }
};

// A cell that lets the first SIGINT go by and sleeps on; a later one raises.
inline constexpr const char* kSwallowsTheFirstSigint =
    "import signal, time\nseen = []\n"
    "def second_one_counts(signum, frame):\n"
    "    seen.append(signum)\n"
    "    if len(seen) > 1:\n"
    "        raise KeyboardInterrupt\n"
    "signal.signal(signal.SIGINT, second_one_counts)\ntime.sleep(30)";

// A cell whose KeyboardInterrupt handler takes longer than the host's
// SIGINT repeat interval.
inline constexpr const char* kCleansUpSlowly =
    "import time\ntry:\n    time.sleep(30)\nexcept KeyboardInterrupt:\n"
    "    time.sleep(0.8)\n    print('cleaned up')\n    raise";

// Runs `code`, which calls the rendezvous tool, and cancels the call once
// the script has reached it; the call's whole result.
inline registry::ToolCallResult cancel_when_reached(ExecHarness& h, Rendezvous& meet,
                                                    const std::string& code) {
  std::stop_source stop;
  auto future =
      std::async(std::launch::async, [&] { return h.run_result(code, stop.get_token()); });
  meet.reached.get_future().wait();
  stop.request_stop();
  return future.get();
}

}  // namespace testing
}  // namespace hermes
