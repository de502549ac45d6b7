// SPDX-License-Identifier: MIT
// The server driven in-process through pipes, with test-only tools.
#include "mcp/server.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <set>
#include <thread>

#include "core/config.h"
#include "core/paths.h"
#include "mcp/line_reader.h"

namespace hermes::mcp {
namespace {

using namespace std::chrono_literals;

// Waits on the stop token for up to `ms` (from the args), reports whether it
// was stopped.
Json slow_tool(const Json& args, CallContext& ctx) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(args.value("ms", 0));
  while (std::chrono::steady_clock::now() < deadline && !ctx.stop.stop_requested()) {
    std::this_thread::sleep_for(1ms);
  }
  return {{"stopped", ctx.stop.stop_requested()}};
}

class ServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    registry_.add(ToolSpec{.name = "slow", .toolset = "file", .description = "d",
                           .input_schema = {{"type", "object"}}, .handler = slow_tool});
    registry_.add(ToolSpec{.name = "fail", .toolset = "file", .description = "d",
                           .input_schema = {{"type", "object"}},
                           .handler = [](const Json&, CallContext&) -> Json {
                             throw std::runtime_error("boom");
                           }});
    ASSERT_EQ(::pipe(in_), 0);
    ASSERT_EQ(::pipe(out_), 0);
    server_ = std::make_unique<Server>(registry_, services_, ServerOptions{});
    thread_ = std::thread([this] { server_->run(in_[0], out_[1]); ::close(out_[1]); });
    reader_ = std::make_unique<LineReader>(out_[0], 1 << 20);
  }
  void TearDown() override {
    ::close(in_[1]);
    thread_.join();
    ::close(in_[0]);
    ::close(out_[0]);
  }
  void send(const std::string& line) {
    std::string l = line + "\n";
    ASSERT_EQ(::write(in_[1], l.data(), l.size()), static_cast<ssize_t>(l.size()));
  }
  Json next() {
    std::string line;
    EXPECT_EQ(reader_->next(line), LineReader::Status::kLine);
    return Json::parse(line);
  }
  Json call(int id, const std::string& tool, const Json& args) {
    return {{"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/call"},
            {"params", {{"name", tool}, {"arguments", args}}}};
  }

  std::unique_ptr<Config> config_ = Config::from_yaml("");
  PathResolver paths_;
  Services services_{*config_, paths_};
  Registry registry_;
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
  send(R"({"jsonrpc":"2.0","id":"d","method":"tools/call","params":{"name":"slow","arguments":[1]}})");
  EXPECT_EQ(next()["error"]["code"], -32602);
}

TEST_F(ServerTest, DuplicateInFlightIdIsRefused) {
  send(dump_json(call(7, "slow", {{"ms", 500}})));
  send(dump_json(call(7, "slow", {{"ms", 0}})));
  Json first = next();
  EXPECT_EQ(first["error"]["code"], -32600);
  EXPECT_EQ(next()["id"], 7);
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

// Each hostile text gets a -32700 with a null id, and the server keeps serving.
TEST_F(ServerTest, HostileJsonIsAParseErrorNotAnExit) {
  std::string deep_arrays(100000, '[');
  std::string deep_args = R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","arguments":{"a":)";
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
