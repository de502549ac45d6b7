// SPDX-License-Identifier: MIT
// The HTTP server's life cycle: the first SIGINT or SIGTERM stops it
// gracefully, and gives the signals their default action back so that a
// second one ends the process even if the shutdown were to hang.
#include "http/server.h"

#include "core/config.h"
#include "core/paths.h"

#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <thread>

namespace hermes::http {
namespace {

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

}  // namespace
}  // namespace hermes::http
