// SPDX-License-Identifier: MIT
// `hermes-tools serve`: MCP over Streamable HTTP on one endpoint, both eras.
// A few I/O threads (one per CPU) hold every connection, each connection on
// one of them (idle sessions cost memory, not threads). A brief tools/call (a
// local file tool) runs on its connection's I/O thread; any other runs on a
// worker of the call pool and posts its notifications and response back. A
// result ready within a second goes out as JSON, a slower one (or one
// preceded by progress) as an SSE stream with keep-alive comments. On the
// modern wire a closed connection cancels its call.
#pragma once

#include "core/result.h"
#include "mcp/router.h"

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "http/endpoint.h"

namespace hermes::http {

struct ServerOptions {
  std::string host = "127.0.0.1";
  unsigned short port = 8787;  // 0: any free port
  EndpointOptions endpoint;
  size_t max_header_bytes = 16u << 10;
  size_t max_body_bytes = 16u << 20;
  std::chrono::milliseconds header_timeout{10000};
  std::chrono::milliseconds body_timeout{30000};
  std::chrono::milliseconds keep_alive_timeout{60000};
  // For a connection none of whose requests has been authenticated yet: a
  // client without a token holds no descriptor for long.
  std::chrono::milliseconds unauthenticated_keep_alive{5000};
  std::chrono::milliseconds write_stall_timeout{30000};
  std::chrono::milliseconds json_window{1000};  // longer than this: SSE
  std::chrono::milliseconds sse_keep_alive{15000};
  size_t io_threads = 0;  // 0: one per usable CPU, at most 16
  // Connections held open at once; beyond, a new one is answered 503 and
  // closed. 0: half the soft open-files limit, so that the descriptors
  // never run out on connections alone.
  size_t max_connections = 0;
  // The same from one peer (an IPv4 address, an IPv6 /64). 0: a quarter of
  // max_connections.
  size_t max_connections_per_peer = 0;
};

// Splits "HOST:PORT" / "[V6]:PORT" for --listen. An error names the problem.
Result<std::pair<std::string, unsigned short>> parse_listen(const std::string& listen);
// Does an IP address (as parse_listen gives it) mean "every address"?
// Judged on the parsed address, whatever the spelling: "::0",
// "0:0:0:0:0:0:0:0" and "::ffff:0.0.0.0" are all wildcards.
bool is_wildcard_address(const std::string& host);

class Server {
 public:
  Server(mcp::Router& router, ServerOptions options);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds; an error when the address cannot be bound.
  Result<void> bind();
  // The bound port (after bind()).
  unsigned short port() const;
  // Serves until stop() or SIGINT/SIGTERM, then ends every call and session.
  void run();
  // Thread-safe.
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hermes::http
