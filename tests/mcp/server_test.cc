// SPDX-License-Identifier: MIT
// The server driven in-process through pipes, with test-only tools.
#include "mcp/server.h"

#include "core/config.h"
#include "core/paths.h"
#include "mcp/line_reader.h"
#include "registry/call_status.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <functional>
#include <set>
#include <thread>
#include <utility>

namespace hermes::mcp {
namespace {

using namespace std::chrono_literals;

// Waits on the stop token for up to `ms` (from the args), reports whether it
// was stopped.
registry::ToolReply slow_tool(const Json& args, registry::CallContext& ctx) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(args.value("ms", 0));
  while (std::chrono::steady_clock::now() < deadline && !ctx.stop.stop_requested()) {
    std::this_thread::sleep_for(1ms);
  }
  return registry::ToolReply{{{"stopped", ctx.stop.stop_requested()}}};
}

// A long call that has written two lines, then waits like slow_tool.
registry::ToolReply chatty_tool(const Json& args, registry::CallContext& ctx) {
  if (ctx.status) ctx.status->add_output("step one\nstep two\n");
  return slow_tool(args, ctx);
}

// A modern request: the envelope in `_meta`, tasks declared when asked.
Json modern(const Json& id, const std::string& method, Json params = Json::object(),
            bool tasks = false) {
  Json caps = Json::object();
  if (tasks) caps["extensions"]["io.modelcontextprotocol/tasks"] = Json::object();
  params["_meta"]["io.modelcontextprotocol/protocolVersion"] = "2026-07-28";
  params["_meta"]["io.modelcontextprotocol/clientCapabilities"] = caps;
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}};
}

class ServerTest : public ::testing::Test {
 protected:
  static constexpr std::chrono::milliseconds kEofGrace{3000};

  void SetUp() override {
    registry_.add(registry::ToolSpec{.name = "slow",
                                     .toolset = "file",
                                     .description = "d",
                                     .input_schema = {{"type", "object"}},
                                     .run = slow_tool});
    // A long-running tool: its calls may become tasks.
    registry_.add(registry::ToolSpec{.name = "long",
                                     .toolset = "file",
                                     .description = "d",
                                     .input_schema = {{"type", "object"}},
                                     .run = slow_tool,
                                     .long_running = [](const Json&) { return true; }});
    registry_.add(registry::ToolSpec{.name = "chatty",
                                     .toolset = "file",
                                     .description = "d",
                                     .input_schema = {{"type", "object"}},
                                     .run = chatty_tool,
                                     .long_running = [](const Json&) { return true; }});
    registry_.add(
        registry::ToolSpec{.name = "fail",
                           .toolset = "file",
                           .description = "d",
                           .input_schema = {{"type", "object"}},
                           .run = [](const Json&, registry::CallContext&) -> registry::ToolReply {
                             throw std::runtime_error("boom");
                           }});
    ASSERT_EQ(::pipe(in_), 0);
    ASSERT_EQ(::pipe(out_), 0);
    ServerOptions options;
    options.router.task.inline_budget = 100ms;
    options.eof_grace = kEofGrace;
    server_ = std::make_unique<Server>(registry_, services_, options);
    thread_ = std::thread([this] {
      server_->run(in_[0], out_[1]);
      ::close(out_[1]);
    });
    reader_ = std::make_unique<LineReader>(out_[0], 1 << 20);
  }
  void TearDown() override {
    close_input();
    thread_.join();
    ::close(in_[0]);
    ::close(out_[0]);
  }
  // EOF on the server's stdin (once).
  void close_input() {
    if (in_[1] >= 0) ::close(std::exchange(in_[1], -1));
  }
  void send(const std::string& line) {
    std::string l = line + "\n";
    ASSERT_EQ(::write(in_[1], l.data(), l.size()), static_cast<ssize_t>(l.size()));
  }
  Json next() {
    std::string line;
    EXPECT_EQ(reader_->next(line), LineReader::Status::kLine);
    return line.empty() ? Json() : Json::parse(line);
  }
  // True once the server has closed its output: run() returned.
  bool output_ended() {
    std::string line;
    return reader_->next(line) == LineReader::Status::kEof;
  }
  Json call(int id, const std::string& tool, const Json& args) {
    return {{"jsonrpc", "2.0"},
            {"id", id},
            {"method", "tools/call"},
            {"params", {{"name", tool}, {"arguments", args}}}};
  }

  // Polls tasks/get until the task leaves `working` (bounded).
  Json poll_task(const std::string& task_id);

  std::unique_ptr<Config> config_ = Config::from_yaml("");
  PathResolver paths_;
  registry::Services services_{*config_, paths_};
  registry::Registry registry_;
  int in_[2], out_[2];
  std::unique_ptr<Server> server_;
  std::thread thread_;
  std::unique_ptr<LineReader> reader_;
};

TEST_F(ServerTest, FastCallOvertakesSlowCall) {
  send(dump_json(call(1, "slow", {{"ms", 2000}})));
  send(dump_json(call(2, "slow", {{"ms", 0}})));
  EXPECT_EQ(next()["id"], 2);
  send(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}})");
  send(R"({"jsonrpc":"2.0","id":3,"method":"ping"})");
  // The cancelled call sends nothing; the ping is the next message.
  EXPECT_EQ(next()["id"], 3);
}

TEST_F(ServerTest, EscapedExceptionBecomesAnErrorResult) {
  send(dump_json(call(1, "fail", Json::object())));
  Json reply = next();
  EXPECT_TRUE(reply["result"]["isError"].get<bool>());
  EXPECT_NE(reply["result"]["content"][0]["text"].get<std::string>().find("boom"),
            std::string::npos);
}

TEST_F(ServerTest, ProtocolErrors) {
  send("{not json");
  EXPECT_EQ(next()["error"]["code"], -32700);
  send(R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})");
  EXPECT_EQ(next()["error"]["code"], -32600);
  send(R"({"jsonrpc":"2.0","id":"a","method":7})");
  EXPECT_EQ(next()["error"]["code"], -32600);
  send(R"({"jsonrpc":"2.0","id":"b","method":"tools/call","params":{"name":"nope"}})");
  EXPECT_EQ(next()["error"]["code"], -32602);
  send(R"({"jsonrpc":"2.0","id":"c","method":"logging/setLevel","params":{"level":"loud"}})");
  EXPECT_EQ(next()["error"]["code"], -32602);
  send(
      R"({"jsonrpc":"2.0","id":"d","method":"tools/call","params":{"name":"slow","arguments":[1]}})");
  EXPECT_EQ(next()["error"]["code"], -32602);
}

TEST_F(ServerTest, DuplicateInFlightIdIsRefused) {
  send(dump_json(call(7, "slow", {{"ms", 500}})));
  send(dump_json(call(7, "slow", {{"ms", 0}})));
  Json first = next();
  EXPECT_EQ(first["error"]["code"], -32600);
  EXPECT_EQ(next()["id"], 7);
}

TEST_F(ServerTest, ErrorsWithoutAKnownIdOmitIt) {
  send("{not json");
  Json parse = next();
  EXPECT_FALSE(parse.contains("id"));
  send(R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])");
  EXPECT_FALSE(next().contains("id"));
}

TEST_F(ServerTest, DiscoverAnswersTheModernEra) {
  send(dump_json(modern("d1", "server/discover")));
  Json result = next()["result"];
  EXPECT_EQ(result["supportedVersions"], Json::array({"2026-07-28"}));
  EXPECT_EQ(result["resultType"], "complete");
  EXPECT_TRUE(result["capabilities"]["extensions"].contains("io.modelcontextprotocol/tasks"));
  EXPECT_EQ(result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "hermes-tools");
  EXPECT_EQ(result["cacheScope"], "private");
  // Without a claim, discover is an unknown legacy method.
  send(R"({"jsonrpc":"2.0","id":2,"method":"server/discover"})");
  EXPECT_EQ(next()["error"]["code"], -32601);
}

TEST_F(ServerTest, ModernLadderRefusals) {
  Json no_caps = modern(1, "tools/list");
  no_caps["params"]["_meta"].erase("io.modelcontextprotocol/clientCapabilities");
  send(dump_json(no_caps));
  Json reply = next();
  EXPECT_EQ(reply["error"]["code"], -32602);
  EXPECT_EQ(reply["id"], 1);
  Json future = modern(2, "tools/list");
  future["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = "2099-01-01";
  send(dump_json(future));
  reply = next();
  EXPECT_EQ(reply["error"]["code"], -32022);
  EXPECT_EQ(reply["error"]["data"]["requested"], "2099-01-01");
  for (const char* removed : {"ping", "logging/setLevel", "initialize", "tasks/list"}) {
    send(dump_json(modern(3, removed)));
    EXPECT_EQ(next()["error"]["code"], -32601) << removed;
  }
}

TEST_F(ServerTest, EraDecidedPerMessage) {
  send(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})");
  EXPECT_FALSE(next()["result"].contains("resultType"));
  send(dump_json(modern(2, "tools/list")));
  Json result = next()["result"];
  EXPECT_EQ(result["resultType"], "complete");
  EXPECT_EQ(result["ttlMs"], 600000);
  send(dump_json(modern(3, "tools/call", {{"name", "slow"}, {"arguments", {{"ms", 0}}}})));
  result = next()["result"];
  EXPECT_EQ(result["resultType"], "complete");
  EXPECT_EQ(result["isError"], false);
  send(R"({"jsonrpc":"2.0","id":4,"method":"ping"})");
  EXPECT_EQ(next()["result"], Json::object());
}

Json ServerTest::poll_task(const std::string& task_id) {
  Json task;
  for (int i = 0; i < 1000; ++i) {
    send(dump_json(modern("g", "tasks/get", {{"taskId", task_id}}, true)));
    task = next()["result"];
    if (task["status"] != "working") break;
    std::this_thread::sleep_for(20ms);
  }
  return task;
}

TEST_F(ServerTest, LongCallBecomesATaskThatCompletes) {
  send(dump_json(modern(1, "tools/call", {{"name", "long"}, {"arguments", {{"ms", 600}}}}, true)));
  Json created = next()["result"];
  ASSERT_EQ(created["resultType"], "task");
  ASSERT_EQ(created["status"], "working");
  EXPECT_GT(created["ttlMs"].get<int64_t>(), 0);
  std::string id = created["taskId"];
  Json done = poll_task(id);
  EXPECT_EQ(done["status"], "completed");
  EXPECT_EQ(done["result"]["isError"], false);
  EXPECT_EQ(done["resultType"], "complete");
}

TEST_F(ServerTest, CancelledTaskSettlesCancelled) {
  send(
      dump_json(modern(1, "tools/call", {{"name", "long"}, {"arguments", {{"ms", 30000}}}}, true)));
  std::string id = next()["result"]["taskId"];
  send(dump_json(modern(2, "tasks/cancel", {{"taskId", id}}, true)));
  EXPECT_EQ(next()["result"]["resultType"], "complete");
  Json done = poll_task(id);
  EXPECT_EQ(done["status"], "cancelled");
  EXPECT_FALSE(done.contains("result"));
}

// A running task's statusMessage says what the call has written so far.
TEST_F(ServerTest, ARunningTaskSaysWhatItHasWritten) {
  send(dump_json(
      modern(1, "tools/call", {{"name", "chatty"}, {"arguments", {{"ms", 30000}}}}, true)));
  std::string id = next()["result"]["taskId"];
  // The work writes as it starts, on its own thread: ask until it has.
  std::string message;
  for (int i = 0; i < 250 && message.find("bytes") == std::string::npos; ++i) {
    if (i > 0) std::this_thread::sleep_for(20ms);
    send(dump_json(modern("g", "tasks/get", {{"taskId", id}}, true)));
    message = next()["result"].value("statusMessage", "");
  }
  EXPECT_THAT(message,
              ::testing::MatchesRegex(
                  "chatty: running for [0-9]+ s, 18 bytes of output; last line: step two"));
  send(dump_json(modern(3, "tasks/cancel", {{"taskId", id}}, true)));
  next();
  EXPECT_EQ(poll_task(id)["statusMessage"], "chatty: cancelled");
}

// Progress carries the last line of the call's output as its message.
TEST_F(ServerTest, ProgressCarriesTheLastLineOfOutput) {
  Json request = call(1, "chatty", {{"ms", 3000}});
  request["params"]["_meta"]["progressToken"] = "p";
  send(dump_json(request));
  Json note = next();
  EXPECT_EQ(note["method"], "notifications/progress") << note.dump();
  EXPECT_EQ(note["params"]["message"], "step two");
  Json reply = note;
  for (int i = 0; i < 5 && !reply.contains("result"); ++i) reply = next();
  EXPECT_TRUE(reply.contains("result")) << reply.dump();
}

TEST_F(ServerTest, NoTaskWithoutTheExtension) {
  send(dump_json(modern(1, "tools/call", {{"name", "long"}, {"arguments", {{"ms", 300}}}})));
  EXPECT_EQ(next()["result"]["resultType"], "complete");
  send(dump_json(modern(2, "tasks/get", {{"taskId", "tk_x"}})));
  EXPECT_EQ(next()["error"]["code"], -32021);
  send(dump_json(modern(3, "tasks/get", {{"taskId", "tk_x"}}, true)));
  EXPECT_EQ(next()["error"]["code"], -32602);
}

TEST_F(ServerTest, ManyConcurrentCallsAllAnswerAndAReadIsNotHeldBehindThem) {
  // More blocked calls than the pool's cap: the rest queue, none is lost.
  constexpr int kCalls = 80;
  for (int i = 1; i <= kCalls; ++i) send(dump_json(call(i, "slow", {{"ms", 300}})));
  std::set<int> ids;
  for (int i = 1; i <= kCalls; ++i) ids.insert(next()["id"].get<int>());
  EXPECT_EQ(ids.size(), static_cast<size_t>(kCalls));
  // A call sent while long ones run is answered first.
  send(dump_json(call(100, "slow", {{"ms", 5000}})));
  send(dump_json(call(101, "slow", {{"ms", 0}})));
  EXPECT_EQ(next()["id"], 101);
  send(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":100}})");
}

// `printf '<calls>' | hermes-tools mcp`: input ends right after the calls,
// and each still gets its answer, in both eras.
TEST_F(ServerTest, CallsInFlightAtEofStillAnswer) {
  send(dump_json(call(1, "slow", {{"ms", 200}})));
  send(dump_json(modern(2, "tools/call", {{"name", "slow"}, {"arguments", {{"ms", 200}}}})));
  close_input();
  std::set<int> answered;
  for (int i = 0; i < 2; ++i) {
    Json reply = next();
    EXPECT_EQ(reply["result"]["isError"], false) << reply.dump();
    EXPECT_NE(reply["result"]["content"][0]["text"].get<std::string>().find(R"("stopped":false)"),
              std::string::npos)
        << reply.dump();
    answered.insert(reply["id"].get<int>());
  }
  EXPECT_EQ(answered, (std::set<int>{1, 2}));
  EXPECT_TRUE(output_ended());
}

// A call that outlives the grace is answered with an error that says why,
// then stopped, and the server ends.
TEST_F(ServerTest, ACallPastTheEofGraceIsAnsweredAsCancelled) {
  send(dump_json(call(1, "slow", {{"ms", 600'000}})));
  close_input();
  Json reply = next();
  EXPECT_EQ(reply["id"], 1);
  EXPECT_EQ(reply["error"]["code"], -32603);
  EXPECT_NE(reply["error"]["message"].get<std::string>().find("input closed"), std::string::npos)
      << reply.dump();
  EXPECT_TRUE(output_ended());
}

// Each hostile text gets a -32700 with a null id, and the server keeps serving.
TEST_F(ServerTest, HostileJsonIsAParseErrorNotAnExit) {
  std::string deep_arrays(100000, '[');
  std::string deep_args =
      R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","arguments":{"a":)";
  deep_args += std::string(100000, '[') + std::string(100000, ']') + "}}}";
  for (const std::string& hostile :
       {std::string(R"({"jsonrpc":"2.0","id":1e400,"method":"ping"})"),
        std::string(R"({"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"})"),
        deep_arrays, deep_args}) {
    send(hostile);
    Json reply = next();
    EXPECT_EQ(reply["error"]["code"], -32700) << reply.dump();
    EXPECT_TRUE(reply["id"].is_null());
  }
  send(R"({"jsonrpc":"2.0","id":9,"method":"ping"})");
  EXPECT_EQ(next()["id"], 9);
}

}  // namespace
}  // namespace hermes::mcp
