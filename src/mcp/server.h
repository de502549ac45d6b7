// SPDX-License-Identifier: MIT
// The MCP server over newline-delimited JSON-RPC: protocol methods answered on
// the reader thread, each tools/call on a CallPool worker (responses may come
// out of order) but a brief read while no other input waits, which the
// reader thread answers itself; notifications/cancelled stops the call it
// names. Both eras on one connection, told apart per message: a request
// claiming a protocol version in its `_meta` is modern, anything else follows
// the legacy handshake. One server is one session. Not copyable; run() is called once.
#pragma once

#include "mcp/call_pool.h"
#include "mcp/client_link.h"
#include "mcp/output_writer.h"
#include "mcp/protocol.h"
#include "mcp/request_channel.h"
#include "mcp/router.h"
#include "registry/session.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>

namespace hermes::mcp {

struct ServerOptions {
  RouterOptions router;
  size_t max_line_bytes = 64u << 20;
  // How long the reader polls for the next message before it sleeps. A
  // sleeping thread's wake-up costs tens of µs on a virtual CPU, and a
  // client's next call often comes right after our answer; the price is at
  // most this much CPU per message that finds the reader waiting.
  std::chrono::microseconds input_spin{100};
  // At stdin EOF, how long calls in flight may still take to finish and
  // write their answers (docs/mcp.md, Shutdown); the rest are cancelled and
  // answered with an error.
  std::chrono::milliseconds eof_grace{2000};
};

class Server {
 public:
  Server(const registry::Registry& registry, const registry::Services& services,
         ServerOptions options);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Serves until EOF on `in_fd`; then lets calls in flight finish for up to
  // `eof_grace`, answers the rest with a cancellation error, stops them,
  // waits for them and ends the session (killing what it started). Returns 0.
  int run(int in_fd, int out_fd);

 private:
  struct InFlight {
    Json id;
    std::stop_source stop;
    std::atomic<bool> cancelled{false};
    std::atomic<bool> answered{false};  // whoever sets it first writes the one answer
    std::optional<Envelope> envelope;   // set for a modern request
  };

  void handle_line(const std::string& line);
  void handle_message(const Json& message);
  void handle_modern(const Json& id, const std::string& method, const Json& params);
  void handle_notification(const std::string& method, const Json& params);
  void handle_tools_call(const Json& id, const Json& params, std::optional<Envelope> envelope);
  bool track(const Json& id, const std::shared_ptr<InFlight>& flight);  // false: id in use
  void run_call(const Json& id, const PreparedCall& call, std::shared_ptr<InFlight> flight);
  void cancel(const Json& request_id);
  void finish_on_eof();
  void stop_all_and_join();
  void send(const Json& message);

  ServerOptions options_;
  Router router_;
  std::unique_ptr<registry::Session> session_;
  std::unique_ptr<OutputWriter> writer_;
  std::unique_ptr<ClientLink> client_;  // the legacy era's channel
  RequestChannel modern_channel_;
  bool input_waiting_ = false;  // reader thread: input past the line in hand
  std::mutex flights_mu_;
  std::map<std::string, std::shared_ptr<InFlight>> flights_;  // flights_mu_; by id
  std::condition_variable flight_done_;                       // a flight left flights_
  CallPool pool_;  // last: its workers finish before the members they use go
};

}  // namespace hermes::mcp
