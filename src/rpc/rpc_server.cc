// SPDX-License-Identifier: MIT
#include "rpc/rpc_server.h"

#include "proc/unix_socket.h"
#include "rpc/rpc_protocol.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <vector>

namespace hermes::rpc {

struct RpcServer::Connection {
  UniqueFd fd;
  std::string buffer;  // bytes received after the last complete line
};

Result<std::unique_ptr<RpcServer>> RpcServer::listen(const std::string& private_dir,
                                                     RpcLimits limits) {
  std::string path = private_dir + "/hermes_rpc_" + random_hex(16) + ".sock";
  // The directory is already private; 0600 keeps the socket so if it moves.
  HERMES_ASSIGN_OR_RETURN(UniqueFd listen_fd, proc::listen_unix(path, 0600, 4));
  UniqueFd wake(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  if (!wake.valid()) {
    ::unlink(path.c_str());
    return Error::FromErrno(errno, "eventfd");
  }
  return std::unique_ptr<RpcServer>(new RpcServer(std::move(path), random_hex(16),
                                                  std::move(listen_fd), std::move(wake), limits));
}

RpcServer::RpcServer(std::string socket_path, std::string token, UniqueFd listen_fd,
                     UniqueFd wake_fd, RpcLimits limits)
    : socket_path_(std::move(socket_path)),
      token_(std::move(token)),
      listen_fd_(std::move(listen_fd)),
      wake_fd_(std::move(wake_fd)),
      limits_(limits) {}

RpcServer::~RpcServer() { ::unlink(socket_path_.c_str()); }

void RpcServer::stop() {
  uint64_t one = 1;
  // An eventfd write only fails when the counter would overflow: already set.
  [[maybe_unused]] ssize_t n = ::write(wake_fd_.get(), &one, sizeof one);
}

void RpcServer::serve(RpcHandler& handler) {
  std::vector<pollfd> fds;
  for (;;) {
    fds.assign({{wake_fd_.get(), POLLIN, 0}, {listen_fd_.get(), POLLIN, 0}});
    for (const auto& conn : connections_) fds.push_back({conn->fd.get(), POLLIN, 0});
    if (::poll(fds.data(), fds.size(), -1) < 0 && errno != EINTR) return;
    if (fds[0].revents) return;
    // Service existing connections before accepting, so indices still match.
    for (size_t i = connections_.size(); i-- > 0;) {
      if (fds[i + 2].revents && !service(*connections_[i], handler)) {
        connections_.erase(connections_.begin() + static_cast<ptrdiff_t>(i));
      }
    }
    if (fds[1].revents) accept_pending();
  }
}

void RpcServer::accept_pending() {
  for (;;) {
    UniqueFd fd(::accept4(listen_fd_.get(), nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK));
    if (!fd.valid()) return;
    if (connections_.size() >= limits_.max_connections) continue;  // closes it
    connections_.push_back(std::make_unique<Connection>(Connection{std::move(fd), {}}));
  }
}

bool RpcServer::service(Connection& conn, RpcHandler& handler) {
  char chunk[65536];
  ssize_t n = ::recv(conn.fd.get(), chunk, sizeof chunk, 0);
  if (n < 0) return errno == EAGAIN || errno == EINTR;
  if (n == 0) return false;
  size_t scan = conn.buffer.size();
  conn.buffer.append(chunk, static_cast<size_t>(n));
  size_t start = 0;
  for (size_t nl = conn.buffer.find('\n', scan); nl != std::string::npos;
       nl = conn.buffer.find('\n', start)) {
    std::string line = conn.buffer.substr(start, nl - start);
    start = nl + 1;
    if (!send_all(conn.fd.get(), answer(line, handler))) return false;
  }
  conn.buffer.erase(0, start);
  if (conn.buffer.size() > limits_.max_request_bytes) {
    send_all(conn.fd.get(),
             frame_response(rpc_error("Invalid RPC request: request exceeds " +
                                      std::to_string(limits_.max_request_bytes) + " bytes")));
    return false;
  }
  return true;
}

std::string RpcServer::answer(const std::string& line, RpcHandler& handler) const {
  auto request = parse_request(line);
  if (!request) return frame_response(rpc_error("Invalid RPC request: " + request.error().message));
  if (!tokens_equal(request->token, token_)) {
    return frame_response(rpc_error("Unauthorized RPC request"));
  }
  return dispatch_request(*request, handler);
}

bool RpcServer::send_all(int fd, const std::string& data) const {
  size_t sent = 0;
  while (sent < data.size()) {
    ssize_t n = ::send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
    if (n > 0) {
      sent += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno != EAGAIN) return false;
    // The script is not reading yet: wait for room, or for stop().
    pollfd fds[2] = {{fd, POLLOUT, 0}, {wake_fd_.get(), POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0 && errno != EINTR) return false;
    if (fds[1].revents) return false;
  }
  return true;
}

}  // namespace hermes::rpc
