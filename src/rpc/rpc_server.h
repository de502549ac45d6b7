// SPDX-License-Identifier: MIT
// The server side of the execute_code RPC: a Unix socket (mode 0600) in a
// private directory, a random per-run token, newline-delimited JSON requests
// answered one at a time in arrival order.
#pragma once

#include "core/result.h"
#include "proc/unique_fd.h"
#include "rpc/rpc_handler.h"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace hermes::rpc {

using proc::UniqueFd;

struct RpcLimits {
  // A request line longer than this is answered with an error and its
  // connection closed (bounded buffering against a hostile script).
  size_t max_request_bytes = 64u << 20;
  // Connections beyond this many are accepted and closed at once.
  size_t max_connections = 8;
};

// Thread-safety: serve() runs on one thread; stop() may be called from any
// thread, any number of times. The destructor must not race serve().
class RpcServer {
 public:
  // Binds `<private_dir>/hermes_rpc_<32hex>.sock` and listens. The caller
  // owns `private_dir` (it must be a directory only this user can enter:
  // that, plus the socket's 0600 mode, keeps other users out). kIo /
  // kInvalidArgument (path too long for a socket) on failure.
  static Result<std::unique_ptr<RpcServer>> listen(const std::string& private_dir,
                                                   RpcLimits limits = {});
  ~RpcServer();
  RpcServer(const RpcServer&) = delete;
  RpcServer& operator=(const RpcServer&) = delete;

  const std::string& socket_path() const { return socket_path_; }
  // The token every request must carry (32 hex digits).
  const std::string& token() const { return token_; }

  // Accepts connections and answers their requests through `handler` until
  // stop() is called. Garbage, wrong tokens and oversized lines get error
  // replies; they never end the loop.
  void serve(RpcHandler& handler);
  // Makes serve() return promptly (also interrupting a blocked reply).
  void stop();

 private:
  struct Connection;
  RpcServer(std::string socket_path, std::string token, UniqueFd listen_fd, UniqueFd wake_fd,
            RpcLimits limits);
  void accept_pending();
  // Reads what is available; answers each complete line. False when the
  // connection is finished (EOF, error, oversized line or stopping).
  bool service(Connection& conn, RpcHandler& handler);
  std::string answer(const std::string& line, RpcHandler& handler) const;
  // Writes all of `data`, waiting for the socket to drain; false on error
  // or stop.
  bool send_all(int fd, const std::string& data) const;

  std::string socket_path_;
  std::string token_;
  UniqueFd listen_fd_;
  UniqueFd wake_fd_;  // eventfd: readable once stop() was called
  RpcLimits limits_;
  std::vector<std::unique_ptr<Connection>> connections_;  // serve() thread only
};

}  // namespace hermes::rpc
