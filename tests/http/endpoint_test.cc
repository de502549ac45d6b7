// SPDX-License-Identifier: MIT
// The endpoint's status ladder, driven without sockets.
#include "http/endpoint.h"

#include "core/config.h"
#include "core/paths.h"
#include "registry/client_channel.h"
#include "registry/session.h"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>
#include <vector>

namespace hermes::http {
namespace {

using namespace std::chrono_literals;

class EndpointTest : public ::testing::Test {
 protected:
  void SetUp() override {
    registry_.add(registry::ToolSpec{
        .name = "echo",
        .toolset = "file",
        .description = "d",
        .input_schema = {{"type", "object"}},
        .run = [](const Json& args, registry::CallContext&) { return registry::ToolReply{args}; }});
    router_ = std::make_unique<mcp::Router>(registry_, services_, mcp::RouterOptions{});
  }
  Endpoint& endpoint(EndpointOptions options = {}) {
    endpoint_ = std::make_unique<Endpoint>(*router_, std::move(options));
    return *endpoint_;
  }
  static HttpRequest post(const Json& body, Headers extra = {}) {
    HttpRequest request{"POST",
                        "/mcp",
                        {{"host", "127.0.0.1:8787"},
                         {"accept", "application/json, text/event-stream"},
                         {"content-type", "application/json"}},
                        dump_json(body)};
    for (auto& [name, value] : extra) {
      auto it = std::find_if(request.headers.begin(), request.headers.end(),
                             [&](auto& h) { return h.first == name; });
      if (it != request.headers.end()) request.headers.erase(it);
      if (!value.empty()) request.headers.emplace_back(name, value);
    }
    return request;
  }
  static Json rpc(const Json& id, const std::string& method, Json params = Json::object()) {
    return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
  }
  static Json modern(const Json& id, const std::string& method, Json params = Json::object()) {
    params["_meta"]["io.modelcontextprotocol/protocolVersion"] = "2026-07-28";
    params["_meta"]["io.modelcontextprotocol/clientCapabilities"] = Json::object();
    return rpc(id, method, std::move(params));
  }
  static Headers modern_headers(const std::string& method, const std::string& name = "") {
    Headers h{{"mcp-protocol-version", "2026-07-28"}, {"mcp-method", method}};
    if (!name.empty()) h.emplace_back("mcp-name", name);
    return h;
  }
  static HttpResponse response(std::variant<HttpResponse, CallJob> outcome) {
    EXPECT_TRUE(std::holds_alternative<HttpResponse>(outcome));
    return std::get<HttpResponse>(std::move(outcome));
  }
  static std::string header(const HttpResponse& r, const std::string& name) {
    for (auto& [k, v] : r.headers) {
      if (k == name) return v;
    }
    return "";
  }
  static Json body(const HttpResponse& r) { return Json::parse(r.body); }
  std::string initialize(Endpoint& e, Headers extra = {}) {
    HttpResponse r =
        response(e.handle(post(rpc(1, "initialize", {{"protocolVersion", "2025-11-25"}}), extra)));
    EXPECT_EQ(r.status, 200);
    return header(r, "Mcp-Session-Id");
  }

  std::unique_ptr<Config> config_ = Config::from_yaml("");
  PathResolver paths_;
  registry::Services services_{*config_, paths_};
  registry::Registry registry_;
  std::unique_ptr<mcp::Router> router_;
  std::unique_ptr<Endpoint> endpoint_;
};

TEST_F(EndpointTest, HostAndOriginGuards) {
  Endpoint& e = endpoint();
  Json ping = rpc(1, "initialize");
  EXPECT_EQ(response(e.handle(post(ping, {{"host", ""}}))).status, 400);
  HttpResponse evil = response(e.handle(post(ping, {{"host", "evil.example.com"}})));
  EXPECT_EQ(evil.status, 403);
  EXPECT_FALSE(body(evil).contains("id"));
  EXPECT_EQ(response(e.handle(post(ping, {{"origin", "http://evil.example.com"}}))).status, 403);
  EXPECT_EQ(response(e.handle(post(ping, {{"origin", "null"}}))).status, 403);
  EXPECT_EQ(response(e.handle(post(ping, {{"origin", "http://localhost:3000"}}))).status, 200);
}

TEST_F(EndpointTest, BearerTokensChallengeAndNamePrincipals) {
  EndpointOptions options;
  options.tokens = *TokenTable::parse("alice:a-token\nbob:b-token\n");
  Endpoint& e = endpoint(std::move(options));
  HttpResponse none = response(e.handle(post(rpc(1, "initialize"))));
  EXPECT_EQ(none.status, 401);
  EXPECT_EQ(header(none, "WWW-Authenticate"), "Bearer realm=\"hermes-tools\"");
  HttpResponse wrong =
      response(e.handle(post(rpc(1, "initialize"), {{"authorization", "Bearer nope"}})));
  EXPECT_EQ(wrong.status, 401);
  EXPECT_NE(header(wrong, "WWW-Authenticate").find("error=\"invalid_token\""), std::string::npos);
  EXPECT_EQ(body(wrong)["error"], "invalid_token");
  std::string sid = initialize(e, {{"authorization", "Bearer a-token"}});
  ASSERT_FALSE(sid.empty());
  // bob presenting alice's session id: not found, as if it did not exist.
  HttpResponse foreign = response(e.handle(
      post(rpc(2, "tools/list"), {{"authorization", "Bearer b-token"}, {"mcp-session-id", sid}})));
  EXPECT_EQ(foreign.status, 404);
  HttpResponse own = response(e.handle(
      post(rpc(2, "tools/list"), {{"authorization", "Bearer a-token"}, {"mcp-session-id", sid}})));
  EXPECT_EQ(own.status, 200);
  HttpRequest query = post(rpc(1, "initialize"), {{"authorization", "Bearer a-token"}});
  query.target = "/mcp?access_token=a-token";
  EXPECT_EQ(response(e.handle(query)).status, 400);
}

TEST_F(EndpointTest, MethodAcceptAndMediaType) {
  Endpoint& e = endpoint();
  HttpRequest put = post(rpc(1, "ping"));
  put.method = "PUT";
  HttpResponse r = response(e.handle(put));
  EXPECT_EQ(r.status, 405);
  EXPECT_EQ(header(r, "Allow"), "GET, POST, DELETE");
  HttpRequest get = post(Json(), {{"accept", "application/json"}});
  get.method = "GET";
  EXPECT_EQ(response(e.handle(get)).status, 406);
  get = post(Json(), {{"accept", "text/event-stream"}});
  get.method = "GET";
  EXPECT_EQ(response(e.handle(get)).status, 405);
  EXPECT_EQ(response(e.handle(post(rpc(1, "ping"), {{"accept", "application/json"}}))).status, 406);
  EXPECT_EQ(response(e.handle(post(rpc(1, "initialize"), {{"accept", "*/*"}}))).status, 200);
  EXPECT_EQ(response(e.handle(post(rpc(1, "ping"), {{"content-type", "text/plain"}}))).status, 415);
  EXPECT_EQ(response(e.handle(post(rpc(1, "initialize"),
                                   {{"content-type", "Application/JSON; charset=utf-8"}})))
                .status,
            200);
  HttpRequest other = post(rpc(1, "ping"));
  other.target = "/elsewhere";
  EXPECT_EQ(response(e.handle(other)).status, 404);
  other.target = "/healthz";
  other.method = "GET";
  EXPECT_EQ(response(e.handle(other)).body, "ok");
}

TEST_F(EndpointTest, MalformedBodies) {
  Endpoint& e = endpoint();
  HttpRequest bad = post(Json());
  bad.body = "{not json";
  HttpResponse r = response(e.handle(bad));
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(body(r)["error"]["code"], -32700);
  EXPECT_FALSE(body(r).contains("id"));
  r = response(e.handle(post(Json::array({rpc(1, "ping")}))));
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(body(r)["error"]["code"], -32600);
  r = response(e.handle(post(Json{{"jsonrpc", "2.0"}, {"id", 5}, {"result", {}}})));
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(body(r)["id"], 5);
}

TEST_F(EndpointTest, LegacySessionLifecycle) {
  Endpoint& e = endpoint();
  EXPECT_EQ(response(e.handle(post(rpc(2, "tools/list")))).status, 400);
  std::string sid = initialize(e);
  ASSERT_EQ(sid.size(), 32u);
  EXPECT_EQ(
      response(e.handle(post(Json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}},
                             {{"mcp-session-id", sid}})))
          .status,
      202);
  HttpResponse list = response(e.handle(post(rpc(2, "tools/list"), {{"mcp-session-id", sid}})));
  EXPECT_EQ(list.status, 200);
  EXPECT_EQ(body(list)["result"]["tools"][0]["name"], "echo");
  EXPECT_EQ(response(e.handle(post(rpc(3, "ping"), {{"mcp-session-id", sid},
                                                    {"mcp-protocol-version", "1999-01-01"}})))
                .status,
            400);
  HttpRequest del = post(Json(), {{"mcp-session-id", sid}});
  del.method = "DELETE";
  EXPECT_EQ(response(e.handle(del)).status, 200);
  EXPECT_EQ(response(e.handle(post(rpc(4, "tools/list"), {{"mcp-session-id", sid}}))).status, 404);
  EXPECT_EQ(response(e.handle(del)).status, 404);
}

TEST_F(EndpointTest, SessionCapAndIdleExpiry) {
  EndpointOptions options;
  options.max_sessions = 2;
  options.session_idle = 20ms;
  Endpoint& e = endpoint(std::move(options));
  std::string first = initialize(e);
  initialize(e);
  HttpResponse full = response(e.handle(post(rpc(1, "initialize"))));
  EXPECT_EQ(full.status, 503);
  EXPECT_FALSE(header(full, "Retry-After").empty());
  std::this_thread::sleep_for(60ms);
  e.expire_idle();
  EXPECT_EQ(e.session_count(), 0u);
  EXPECT_EQ(response(e.handle(post(rpc(2, "ping"), {{"mcp-session-id", first}}))).status, 404);
  initialize(e);  // room again
}

// With tokens, one principal holds at most its share of the sessions: at
// its cap its least recently used session without a call in flight ends,
// and while every one of them has a call in flight it is refused; another
// principal still gets sessions (docs/http.md).
TEST_F(EndpointTest, SessionsPerPrincipal) {
  EndpointOptions options;
  options.tokens = *TokenTable::parse("alice:a-token\nbob:b-token\n");
  options.max_sessions = 4;
  options.max_sessions_per_principal = 2;
  Endpoint& e = endpoint(std::move(options));
  Headers alice{{"authorization", "Bearer a-token"}};
  auto as_alice = [&](const std::string& sid) {
    Headers h = alice;
    h.emplace_back("mcp-session-id", sid);
    return h;
  };
  std::string first = initialize(e, alice);
  std::string second = initialize(e, alice);
  // `first` used last: `second` is the least recently used.
  EXPECT_EQ(response(e.handle(post(rpc(2, "ping"), as_alice(first)))).status, 200);
  std::string third = initialize(e, alice);
  EXPECT_EQ(e.session_count(), 2u);
  EXPECT_EQ(response(e.handle(post(rpc(3, "ping"), as_alice(second)))).status, 404);
  EXPECT_EQ(response(e.handle(post(rpc(4, "ping"), as_alice(first)))).status, 200);
  // A call in flight on each of alice's sessions: none of them ends for a new one.
  Json call = rpc(5, "tools/call", {{"name", "echo"}, {"arguments", Json::object()}});
  auto on_first = e.handle(post(call, as_alice(first)));
  auto on_third = e.handle(post(call, as_alice(third)));
  ASSERT_TRUE(std::holds_alternative<CallJob>(on_first));
  ASSERT_TRUE(std::holds_alternative<CallJob>(on_third));
  EXPECT_EQ(response(e.handle(post(rpc(1, "initialize"), alice))).status, 503);
  initialize(e, {{"authorization", "Bearer b-token"}});
  initialize(e, {{"authorization", "Bearer b-token"}});
  EXPECT_EQ(e.session_count(), 4u);
}

// The headers alone decide whether a request may send its body: guards and
// token before any byte of it (docs/http.md).
TEST_F(EndpointTest, AdmitJudgesTheHeadersAlone) {
  EndpointOptions options;
  options.tokens = *TokenTable::parse("alice:a-token\n");
  Endpoint& e = endpoint(std::move(options));
  HttpRequest head = post(Json());
  head.body.clear();
  auto refused = e.admit(head);
  ASSERT_TRUE(std::holds_alternative<HttpResponse>(refused));
  EXPECT_EQ(std::get<HttpResponse>(refused).status, 401);
  HttpRequest foreign =
      post(Json(), {{"host", "evil.example"}, {"authorization", "Bearer a-token"}});
  ASSERT_TRUE(std::holds_alternative<HttpResponse>(e.admit(foreign)));
  EXPECT_EQ(std::get<HttpResponse>(e.admit(foreign)).status, 403);
  auto admitted = e.admit(post(Json(), {{"authorization", "Bearer a-token"}}));
  ASSERT_TRUE(std::holds_alternative<Admission>(admitted));
  EXPECT_EQ(std::get<Admission>(admitted).principal, "alice");
  HttpRequest health = post(Json());
  health.method = "GET";
  health.target = "/healthz";
  auto healthz = e.admit(health);
  ASSERT_TRUE(std::holds_alternative<Admission>(healthz));
  EXPECT_FALSE(std::get<Admission>(healthz).principal) << "no token vouched for it";
}

// Several I/O loops call the endpoint at once: the session cap holds, and
// a session DELETEd from many threads at once is ended exactly once.
TEST_F(EndpointTest, SessionTablesHoldUnderThreads) {
  constexpr int kThreads = 4;
  EndpointOptions options;
  options.max_sessions = 50;
  Endpoint& e = endpoint(std::move(options));
  std::atomic<int> created{0}, refused{0};
  {
    std::vector<std::jthread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&] {
        for (int i = 0; i < 40; ++i) {
          int status = response(e.handle(post(rpc(1, "initialize")))).status;
          (status == 200 ? created : refused)++;
        }
      });
    }
  }
  EXPECT_EQ(created, 50);
  EXPECT_EQ(refused, kThreads * 40 - 50);
  EXPECT_EQ(e.session_count(), 50u);
  Endpoint& d = endpoint();  // the default cap: room for every round
  int doubled = 0;
  for (int round = 0; round < 200; ++round) {
    std::string sid = initialize(d);
    HttpRequest del = post(Json(), {{"mcp-session-id", sid}});
    del.method = "DELETE";
    std::atomic<int> ended{0}, go{0};
    {
      std::vector<std::jthread> threads;
      for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&] {
          ++go;
          while (go < kThreads) {
          }
          if (response(d.handle(del)).status == 200) ++ended;
        });
      }
    }
    doubled += ended != 1;
  }
  EXPECT_EQ(d.session_count(), 0u);
  EXPECT_EQ(doubled, 0) << "rounds where a session was not ended exactly once";
}

// A call that finds its session just as another thread DELETEs it either
// is refused (404) or is cancelled by the DELETE: never does it run on,
// uncounted, in a session that has ended.
TEST_F(EndpointTest, ACallRacingTheDeleteOfItsSessionIsRefusedOrCancelled) {
  Endpoint& e = endpoint();
  int orphans = 0, refused = 0;
  for (int round = 0; round < 2000; ++round) {
    std::string sid = initialize(e);
    HttpRequest del = post(Json(), {{"mcp-session-id", sid}});
    del.method = "DELETE";
    HttpRequest call = post(rpc(7, "tools/call", {{"name", "echo"}, {"arguments", Json::object()}}),
                            {{"mcp-session-id", sid}});
    std::atomic<int> go{0};
    std::optional<std::variant<HttpResponse, CallJob>> outcome;
    {
      std::jthread caller([&] {
        ++go;
        while (go < 2) {
        }
        outcome = e.handle(call);
      });
      ++go;
      while (go < 2) {
      }
      EXPECT_EQ(response(e.handle(del)).status, 200);
    }
    if (auto* job = std::get_if<CallJob>(&*outcome)) {
      orphans += !job->stop->stop_requested();
    } else {
      EXPECT_EQ(std::get<HttpResponse>(*outcome).status, 404);
      ++refused;
    }
  }
  EXPECT_EQ(orphans, 0) << "calls left running in a deleted session";
  RecordProperty("refused", refused);
}

TEST_F(EndpointTest, ModernLadder) {
  Endpoint& e = endpoint();
  HttpResponse ok =
      response(e.handle(post(modern("d", "server/discover"), modern_headers("server/discover"))));
  EXPECT_EQ(ok.status, 200);
  EXPECT_EQ(body(ok)["result"]["resultType"], "complete");
  EXPECT_EQ(header(ok, "Mcp-Session-Id"), "");
  auto status_code = [&](const Json& message, const Headers& headers) {
    HttpResponse r = response(e.handle(post(message, headers)));
    Json b = body(r);
    EXPECT_EQ(b["id"], message["id"]) << r.body;
    return std::make_pair(r.status, b["error"]["code"].get<int>());
  };
  using P = std::pair<int, int>;
  EXPECT_EQ(status_code(modern(1, "tools/list"), {}), P(400, -32020));
  EXPECT_EQ(status_code(modern(2, "tools/list"), modern_headers("TOOLS/LIST")), P(400, -32020));
  Headers old_header = modern_headers("tools/list");
  old_header[0].second = "2025-11-25";
  EXPECT_EQ(status_code(modern(3, "tools/list"), old_header), P(400, -32020));
  EXPECT_EQ(status_code(rpc(4, "tools/list"), modern_headers("tools/list")), P(400, -32602));
  EXPECT_EQ(status_code(rpc(5, "initialize"), modern_headers("initialize")), P(400, -32020));
  EXPECT_EQ(status_code(modern(6, "initialize"), modern_headers("initialize")), P(404, -32601));
  EXPECT_EQ(status_code(modern(7, "ping"), modern_headers("ping")), P(404, -32601));
  Json future = modern(8, "tools/list");
  future["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = "2099-01-01";
  Headers future_headers = modern_headers("tools/list");
  future_headers[0].second = "2099-01-01";
  EXPECT_EQ(status_code(future, future_headers), P(400, -32022));
  Json no_caps = modern(9, "tools/list");
  no_caps["params"]["_meta"].erase("io.modelcontextprotocol/clientCapabilities");
  EXPECT_EQ(status_code(no_caps, modern_headers("tools/list")), P(400, -32602));
  Json call = modern(10, "tools/call", {{"name", "echo"}, {"arguments", Json::object()}});
  EXPECT_EQ(status_code(call, modern_headers("tools/call", "other")), P(400, -32020));
  EXPECT_EQ(status_code(call, modern_headers("tools/call")), P(400, -32020));
}

// What one conversation's guards remember (read dedup, loop counters), and
// what every call of a principal shares (background processes, read stamps).
struct GuardMemory : registry::SessionState {
  static constexpr bool kPerConversation = true;
  std::atomic<int> calls{0};
};
struct WorkspaceMemory : registry::SessionState {
  std::atomic<int> calls{0};
};

// On the 2026-07-28 wire, clients that share a token share the workspace,
// but a conversation's guards are its own: the conversation its key names,
// or, without a key, the call's alone; never the token's.
TEST_F(EndpointTest, ModernCallsKeepGuardsPerConversationNotPerToken) {
  registry_.add(
      registry::ToolSpec{.name = "count",
                         .toolset = "file",
                         .description = "d",
                         .input_schema = {{"type", "object"}},
                         .run = [](const Json&, registry::CallContext& ctx) {
                           return registry::ToolReply{
                               Json{{"conversation", ++ctx.session.state<GuardMemory>().calls},
                                    {"workspace", ++ctx.session.state<WorkspaceMemory>().calls}}};
                         }});
  router_ = std::make_unique<mcp::Router>(registry_, services_, mcp::RouterOptions{});
  Endpoint& e = endpoint();
  int next_id = 1;
  auto count = [&](std::optional<Json> key) {
    Json call = modern(next_id++, "tools/call", {{"name", "count"}, {"arguments", Json::object()}});
    if (key) call["params"]["_meta"]["hermes-tools/conversationId"] = *key;
    auto outcome = e.handle(post(call, modern_headers("tools/call", "count")));
    if (auto* refused = std::get_if<HttpResponse>(&outcome)) return body(*refused);
    std::optional<Json> reply = std::get<CallJob>(outcome).run([](const Json&) {});
    EXPECT_TRUE(reply);
    return Json::parse((*reply)["result"]["content"][0]["text"].get<std::string>());
  };
  using P = std::pair<int, int>;
  auto pair = [](const Json& r) {
    return P(r["conversation"].get<int>(), r["workspace"].get<int>());
  };
  EXPECT_EQ(pair(count(std::nullopt)), P(1, 1));
  EXPECT_EQ(pair(count(std::nullopt)), P(1, 2));  // another client: a fresh conversation
  EXPECT_EQ(pair(count(Json("alpha"))), P(1, 3));
  EXPECT_EQ(pair(count(Json("alpha"))), P(2, 4));  // the same conversation again
  EXPECT_EQ(pair(count(Json("beta"))), P(1, 5));
  EXPECT_EQ(pair(count(Json("alpha"))), P(3, 6));
  Json bad = count(Json(7));
  EXPECT_EQ(bad["error"]["code"], -32602) << bad;
  EXPECT_EQ(count(Json(std::string(300, 'k')))["error"]["code"], -32602);
}

// A legacy session whose client declared elicitation is asked on the call's
// own stream, and its answer, POSTed back with the session id, reaches the
// tool; a session that did not declare it is never asked.
TEST_F(EndpointTest, LegacyCallsAskTheClientOnTheirStream) {
  registry_.add(registry::ToolSpec{
      .name = "ask",
      .toolset = "file",
      .description = "d",
      .input_schema = {{"type", "object"}},
      .run = [](const Json&, registry::CallContext& ctx) {
        if (!ctx.client.supports_elicitation()) return registry::ToolReply{Json("not asked")};
        auto answer = ctx.client.request("elicitation/create", {{"message", "ok?"}},
                                         std::chrono::seconds(20), ctx.stop);
        return registry::ToolReply{answer ? *answer : Json("no answer")};
      }});
  router_ = std::make_unique<mcp::Router>(registry_, services_, mcp::RouterOptions{});
  Endpoint& e = endpoint();
  auto session = [&](Json capabilities) {
    HttpResponse r = response(e.handle(
        post(rpc(1, "initialize",
                 {{"protocolVersion", "2025-11-25"}, {"capabilities", std::move(capabilities)}}))));
    return header(r, "Mcp-Session-Id");
  };
  auto text = [](const std::optional<Json>& reply) {
    return (*reply)["result"]["content"][0]["text"].get<std::string>();
  };
  std::string plain = session(Json::object());
  auto job = e.handle(post(rpc(2, "tools/call", {{"name", "ask"}}), {{"mcp-session-id", plain}}));
  ASSERT_TRUE(std::holds_alternative<CallJob>(job));
  EXPECT_EQ(text(std::get<CallJob>(job).run([](const Json&) {})), "not asked");

  std::string sid = session({{"elicitation", Json::object()}});
  job = e.handle(post(rpc(3, "tools/call", {{"name", "ask"}}), {{"mcp-session-id", sid}}));
  ASSERT_TRUE(std::holds_alternative<CallJob>(job));
  std::mutex mu;
  std::condition_variable cv;
  std::optional<Json> asked;
  std::optional<Json> reply;
  std::thread worker([&] {
    reply = std::get<CallJob>(job).run([&](const Json& message) {
      std::lock_guard lock(mu);
      asked = message;
      cv.notify_all();
    });
  });
  bool was_asked = false;
  {
    std::unique_lock lock(mu);
    was_asked = cv.wait_for(lock, 20s, [&] { return asked.has_value(); });
  }
  if (!was_asked) {  // the tool went on without asking: it has answered
    worker.join();
    FAIL() << "the client was not asked: " << reply->dump();
  }
  EXPECT_EQ((*asked)["method"], "elicitation/create");
  Json answer = {{"jsonrpc", "2.0"}, {"id", (*asked)["id"]}, {"result", {{"action", "accept"}}}};
  // Another session cannot answer for this one; this session can, once.
  EXPECT_EQ(response(e.handle(post(answer, {{"mcp-session-id", plain}}))).status, 400);
  EXPECT_EQ(response(e.handle(post(answer, {{"mcp-session-id", sid}}))).status, 202);
  worker.join();
  EXPECT_EQ(text(reply), R"({"action":"accept"})");
  EXPECT_EQ(response(e.handle(post(answer, {{"mcp-session-id", sid}}))).status, 400);
}

// The conformance scenarios tools-call-with-logging and
// sep-2575-server-no-log-without-loglevel:
// a legacy call's log messages travel on its own stream, at or above the
// level the session chose with logging/setLevel; a modern call, whose
// request set no log level, sends none.
TEST_F(EndpointTest, LegacyCallsLogOnTheirStreamAtTheSessionsLevel) {
  registry_.add(registry::ToolSpec{
      .name = "logs",
      .toolset = "file",
      .description = "d",
      .input_schema = {{"type", "object"}},
      .run = [](const Json&, registry::CallContext& ctx) {
        for (const char* level : {"debug", "info", "error"}) {
          ctx.client.notify("notifications/message", {{"level", level}, {"data", level}});
        }
        return registry::ToolReply{Json::object()};
      }});
  router_ = std::make_unique<mcp::Router>(registry_, services_, mcp::RouterOptions{});
  Endpoint& e = endpoint();
  auto levels_sent = [&](std::variant<HttpResponse, CallJob> job) {
    std::vector<std::string> sent;
    EXPECT_TRUE(std::holds_alternative<CallJob>(job));
    std::get<CallJob>(job).run([&](const Json& message) {
      if (message.value("method", "") == "notifications/message") {
        sent.push_back(message["params"]["level"].get<std::string>());
      }
    });
    return sent;
  };
  std::string sid = initialize(e);
  Json call = rpc(2, "tools/call", {{"name", "logs"}});
  EXPECT_EQ(levels_sent(e.handle(post(call, {{"mcp-session-id", sid}}))),
            (std::vector<std::string>{"debug", "info", "error"}));
  HttpResponse set = response(
      e.handle(post(rpc(3, "logging/setLevel", {{"level", "info"}}), {{"mcp-session-id", sid}})));
  EXPECT_EQ(body(set)["result"], Json::object());
  call["id"] = 4;
  EXPECT_EQ(levels_sent(e.handle(post(call, {{"mcp-session-id", sid}}))),
            (std::vector<std::string>{"info", "error"}));
  Json modern_call = modern(5, "tools/call", {{"name", "logs"}});
  EXPECT_TRUE(
      levels_sent(e.handle(post(modern_call, modern_headers("tools/call", "logs")))).empty());
}

// The conformance scenario http-custom-header-server-validation: an argument
// whose schema names an `x-mcp-header` must come in its Mcp-Param header
// too, with the same value (base64 sentinel decoded strictly); else 400 -32020.
TEST_F(EndpointTest, ModernCallChecksItsMcpParamHeaders) {
  registry_.add(registry::ToolSpec{
      .name = "region",
      .toolset = "file",
      .description = "d",
      .input_schema = {{"type", "object"},
                       {"properties", {{"r", {{"type", "string"}, {"x-mcp-header", "Region"}}}}}},
      .run = [](const Json& args, registry::CallContext&) { return registry::ToolReply{args}; }});
  router_ = std::make_unique<mcp::Router>(registry_, services_, mcp::RouterOptions{});
  Endpoint& e = endpoint();
  auto outcome = [&](Json args, std::optional<std::string> value) {
    Json call = modern(1, "tools/call", {{"name", "region"}, {"arguments", std::move(args)}});
    Headers headers = modern_headers("tools/call", "region");
    if (value) headers.emplace_back("mcp-param-region", *value);
    return e.handle(post(call, headers));
  };
  auto refused = [&](Json args, std::optional<std::string> value) {
    auto result = outcome(std::move(args), std::move(value));
    if (!std::holds_alternative<HttpResponse>(result)) return false;
    const HttpResponse& r = std::get<HttpResponse>(result);
    return r.status == 400 && body(r)["error"]["code"] == -32020;
  };
  EXPECT_FALSE(refused({{"r", "Hello"}}, "Hello"));
  EXPECT_FALSE(refused({{"r", "Hello"}}, "=?base64?SGVsbG8=?="));
  EXPECT_FALSE(refused({{"r", "=?base64?SGVsbG8="}}, "=?base64?SGVsbG8="))  // no suffix: literal
      << "a value without the sentinel's suffix is taken as it is";
  EXPECT_FALSE(refused(Json::object(), std::nullopt));
  EXPECT_TRUE(refused({{"r", "Hello"}}, std::nullopt)) << "missing header";
  EXPECT_TRUE(refused({{"r", "Hello"}}, "Bye")) << "mismatch";
  EXPECT_TRUE(refused({{"r", "Hello"}}, "=?base64?SGVsbG8?=")) << "bad padding";
  EXPECT_TRUE(refused({{"r", "Hello"}}, "=?base64?SGVs!!!bG8=?=")) << "bad characters";
}

TEST_F(EndpointTest, ModernCallRunsWithBase64NameAndCountsLoad) {
  EndpointOptions options;
  options.max_inflight_per_principal = 1;
  Endpoint& e = endpoint(std::move(options));
  Json call = modern(1, "tools/call", {{"name", "echo"}, {"arguments", {{"x", 1}}}});
  auto first = e.handle(post(call, modern_headers("tools/call", "=?base64?ZWNobw==?=")));
  ASSERT_TRUE(std::holds_alternative<CallJob>(first));
  EXPECT_TRUE(std::get<CallJob>(first).cancel_on_disconnect);
  HttpResponse busy = response(e.handle(post(call, modern_headers("tools/call", "echo"))));
  EXPECT_EQ(busy.status, 429);
  EXPECT_EQ(header(busy, "Retry-After"), "1");
  std::optional<Json> reply = std::get<CallJob>(first).run([](const Json&) {});
  ASSERT_TRUE(reply);
  EXPECT_EQ((*reply)["id"], 1);
  EXPECT_EQ((*reply)["result"]["resultType"], "complete");
  // The slot is free again once the call has answered.
  EXPECT_TRUE(
      std::holds_alternative<CallJob>(e.handle(post(call, modern_headers("tools/call", "echo")))));
}

// A call whose job is dropped without running (no worker could be started)
// or whose tool throws gives its place back: the principal is not refused
// with 429 for ever after, and the thrower is answered with an error.
TEST_F(EndpointTest, ACallThatNeverRunsOrThrowsGivesItsPlaceBack) {
  registry_.add(registry::ToolSpec{
      .name = "boom",
      .toolset = "file",
      .description = "d",
      .input_schema = {{"type", "object"}},
      .run = [](const Json&, registry::CallContext&) -> registry::ToolReply {
        throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again));
      }});
  router_ = std::make_unique<mcp::Router>(registry_, services_, mcp::RouterOptions{});
  EndpointOptions options;
  options.max_inflight_per_principal = 1;
  Endpoint& e = endpoint(std::move(options));
  Json echo = modern(1, "tools/call", {{"name", "echo"}, {"arguments", Json::object()}});
  for (int i = 0; i < 3; ++i) {
    auto dropped = e.handle(post(echo, modern_headers("tools/call", "echo")));
    ASSERT_TRUE(std::holds_alternative<CallJob>(dropped)) << "refused after " << i << " drops";
  }
  Json boom = modern(2, "tools/call", {{"name", "boom"}, {"arguments", Json::object()}});
  auto thrower = e.handle(post(boom, modern_headers("tools/call", "boom")));
  ASSERT_TRUE(std::holds_alternative<CallJob>(thrower));
  std::optional<Json> reply = std::get<CallJob>(thrower).run([](const Json&) {});
  ASSERT_TRUE(reply);
  EXPECT_TRUE(reply->contains("error") || (*reply)["result"].value("isError", false))
      << reply->dump();
  EXPECT_TRUE(
      std::holds_alternative<CallJob>(e.handle(post(echo, modern_headers("tools/call", "echo")))));
}

}  // namespace
}  // namespace hermes::http
