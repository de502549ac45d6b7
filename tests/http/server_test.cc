// SPDX-License-Identifier: MIT
// The HTTP server's life cycle: the first SIGINT or SIGTERM stops it
// gracefully, and gives the signals their default action back so that a
// second one ends the process even if the shutdown were to hang; a stop
// while sessions come and go and calls stream progress ends them all (under
// ASan, touching nothing already freed).
#include "http/server.h"

#include "core/config.h"
#include "core/paths.h"
#include "registry/client_channel.h"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

namespace hermes::http {
namespace {

using namespace std::chrono_literals;

bool has_default_action(int signal) {
  struct sigaction current {};
  ::sigaction(signal, nullptr, &current);
  return current.sa_handler == SIG_DFL;
}

TEST(HttpServer, AFirstSignalStopsItAndASecondWouldEndTheProcess) {
  auto config = Config::from_yaml("");
  PathResolver paths;
  registry::Services services{*config, paths};
  registry::Registry registry;
  mcp::Router router(registry, services, mcp::RouterOptions{});
  ServerOptions options;
  options.port = 0;
  options.io_threads = 1;
  Server server(router, options);
  ASSERT_TRUE(server.bind());
  EXPECT_FALSE(has_default_action(SIGTERM));
  std::jthread running([&] { server.run(); });
  ::kill(::getpid(), SIGTERM);
  running.join();  // run() returns: the signal was the server's
  EXPECT_TRUE(has_default_action(SIGTERM));
  EXPECT_TRUE(has_default_action(SIGINT));
}

// The parsed address decides, not its spelling (docs/http.md).
TEST(HttpServer, EverySpellingOfAllAddressesIsAWildcard) {
  for (const char* host : {"0.0.0.0", "::", "::0", "0:0:0:0:0:0:0:0", "::ffff:0.0.0.0", "0::"}) {
    EXPECT_TRUE(is_wildcard_address(host)) << host;
  }
  for (const char* host : {"127.0.0.1", "::1", "10.0.0.5", "::ffff:10.0.0.5", "not an address"}) {
    EXPECT_FALSE(is_wildcard_address(host)) << host;
  }
}

// One HTTP/1.1 request on a fresh connection to 127.0.0.1:`port`; what
// came back before the server closed the connection or `read_for` passed
// (a streamed call never ends on its own). `progress`, if given, is set
// once a progress notification has come.
std::string exchange(unsigned short port, const std::string& method, const std::string& body,
                     const std::string& session, std::chrono::milliseconds read_for,
                     std::atomic<bool>* progress = nullptr) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string got;
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
    std::string request =
        method + " /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n" + "Content-Type: application/json\r\n" +
        "Accept: application/json, text/event-stream\r\n" +
        (session.empty() ? "" : "Mcp-Session-Id: " + session + "\r\n") +
        "Content-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
    if (::send(fd, request.data(), request.size(), MSG_NOSIGNAL) ==
        static_cast<ssize_t>(request.size())) {
      timeval tv{0, 20000};
      ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
      const auto until = std::chrono::steady_clock::now() + read_for;
      char buf[4096];
      while (std::chrono::steady_clock::now() < until) {
        ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) break;
        if (n > 0) got.append(buf, static_cast<size_t>(n));
        if (progress && got.find("notifications/progress") != std::string::npos) *progress = true;
      }
    }
  }
  ::close(fd);
  return got;
}

std::string session_of(const std::string& response) {
  const std::string name = "Mcp-Session-Id: ";
  size_t at = response.find(name);
  if (at == std::string::npos) return "";
  at += name.size();
  return response.substr(at, response.find("\r\n", at) - at);
}

// A tool that streams progress until its call is cancelled.
registry::ToolSpec progress_until_stopped() {
  return registry::ToolSpec{.name = "ticks",
                            .toolset = "file",
                            .description = "d",
                            .input_schema = {{"type", "object"}},
                            .run = [](const Json&, registry::CallContext& ctx) {
                              for (int i = 0; !ctx.stop.stop_requested(); ++i) {
                                ctx.client.notify(
                                    "notifications/progress",
                                    {{"progressToken", ctx.progress_token}, {"progress", i}});
                                std::this_thread::sleep_for(std::chrono::milliseconds(1));
                              }
                              return registry::ToolReply{Json{{"stopped", true}}};
                            }};
}

// Clients open sessions, start streaming calls in them and DELETE them
// once the calls stream; then the server stops in the middle of it all.
TEST(HttpServer, StopsWhileSessionsComeAndGoAndCallsStream) {
  auto config = Config::from_yaml("");
  PathResolver paths;
  registry::Services services{*config, paths};
  registry::Registry registry;
  registry.add(progress_until_stopped());
  mcp::Router router(registry, services, mcp::RouterOptions{});
  ServerOptions options;
  options.port = 0;
  options.io_threads = 2;
  options.json_window = std::chrono::milliseconds(5);  // stream at once
  Server server(router, options);
  ASSERT_TRUE(server.bind());
  const unsigned short port = server.port();
  std::jthread running([&] { server.run(); });
  const std::string init =
      R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}})";
  const std::string call =
      R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ticks","arguments":{},)"
      R"("_meta":{"progressToken":"t"}}})";
  std::atomic<bool> stopping = false;
  std::atomic<int> deleted = 0, streamed = 0;
  std::vector<std::jthread> clients;
  for (int c = 0; c < 4; ++c) {
    clients.emplace_back([&] {
      while (!stopping) {
        const std::string session = session_of(exchange(port, "POST", init, "", 500ms));
        if (session.empty()) continue;
        std::atomic<bool> progress = false;
        std::jthread caller(
            [&, session] { exchange(port, "POST", call, session, 500ms, &progress); });
        const auto give_up = std::chrono::steady_clock::now() + 2s;
        while (!progress && !stopping && std::chrono::steady_clock::now() < give_up)
          std::this_thread::sleep_for(1ms);
        streamed += progress ? 1 : 0;
        if (exchange(port, "DELETE", "", session, 500ms).find(" 200 ") != std::string::npos)
          ++deleted;
      }
    });
  }
  std::this_thread::sleep_for(600ms);
  stopping = true;
  const auto start = std::chrono::steady_clock::now();
  server.stop();
  running.join();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
  clients.clear();
  EXPECT_GT(deleted.load(), 0);
  EXPECT_GT(streamed.load(), 0);
}

}  // namespace
}  // namespace hermes::http
