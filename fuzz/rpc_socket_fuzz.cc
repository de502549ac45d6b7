// SPDX-License-Identifier: MIT
// The execute_code RPC socket end to end: one server for the whole run, one
// connection per input. The input's bytes are sent as a script would send
// them (every `TOKEN` replaced by the server's real token, so requests get
// past authentication), then the write side is shut and every answer read
// until the server closes the connection. An echo handler answers calls.
#include "rpc/rpc_server.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

namespace {

using hermes::Json;

class EchoHandler : public hermes::rpc::RpcHandler {
 public:
  Json handle(const std::string& tool, const Json& args) override {
    return {{"tool", tool}, {"args", args}};
  }
};

// Where the socket lives, removed at exit (the server itself is never
// destroyed: it serves on a detached thread for the life of the process).
std::string socket_dir = "/tmp/hermes-rpc-fuzz-XXXXXX";
std::string socket_file;

void remove_socket() {
  ::unlink(socket_file.c_str());
  ::rmdir(socket_dir.c_str());
}

hermes::rpc::RpcServer& server() {
  static hermes::rpc::RpcServer* instance = [] {
    if (!::mkdtemp(socket_dir.data())) std::abort();
    auto listening = hermes::rpc::RpcServer::listen(socket_dir, {.max_request_bytes = 1 << 16});
    if (!listening) std::abort();
    hermes::rpc::RpcServer* rpc = listening->release();
    socket_file = rpc->socket_path();
    std::atexit(remove_socket);
    std::thread([rpc] {
      static EchoHandler handler;
      rpc->serve(handler);
    }).detach();
    return rpc;
  }();
  return *instance;
}

int connect_to(const std::string& path) {
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path.c_str(), sizeof addr.sun_path - 1);
  if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) std::abort();
  return fd;
}

std::string with_token(std::string text, const std::string& token) {
  for (size_t at = text.find("TOKEN"); at != std::string::npos; at = text.find("TOKEN", at)) {
    text.replace(at, 5, token);
    at += token.size();
  }
  return text;
}

// Waits up to the deadline for `events`; returns what is ready. libFuzzer's
// -timeout alarm (SIGALRM every few seconds) interrupts poll with EINTR: that
// is not a hang, so the wait resumes for the time left. Only a deadline
// that passes with no answer aborts.
short wait_for(int fd, short events, std::chrono::steady_clock::time_point deadline) {
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) std::abort();  // the server stopped answering: a hang
    pollfd p{fd, events, 0};
    int ready = ::poll(&p, 1, static_cast<int>(left.count()));
    if (ready > 0) return p.revents;
    if (ready < 0 && errno != EINTR) std::abort();
  }
}

// recv(2) resumed after a signal; <= 0 when the server hung up or failed.
ssize_t recv_some(int fd, char* buffer, size_t size) {
  for (;;) {
    ssize_t n = ::recv(fd, buffer, size, 0);
    if (n >= 0 || errno != EINTR) return n;
  }
}

// Sends `data` while draining answers (the server blocks when we do not
// read), then half-closes and reads until the server hangs up. Each wait for
// the server may take 10 s.
void send_and_drain(int fd, const std::string& data) {
  size_t sent = 0;
  bool shut = false;
  char sink[65536];
  while (true) {
    if (sent == data.size() && !shut) {
      ::shutdown(fd, SHUT_WR);
      shut = true;
    }
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    short ready = wait_for(fd, static_cast<short>(POLLIN | (shut ? 0 : POLLOUT)), deadline);
    if (ready & (POLLIN | POLLHUP | POLLERR)) {
      if (recv_some(fd, sink, sizeof sink) <= 0) return;
    }
    if (!shut && (ready & POLLOUT)) {
      ssize_t n = ::send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n < 0 && errno != EAGAIN && errno != EINTR) return;  // closed on an oversized request
      if (n > 0) sent += static_cast<size_t>(n);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  hermes::rpc::RpcServer& rpc = server();
  int fd = connect_to(rpc.socket_path());
  send_and_drain(fd,
                 with_token(std::string(reinterpret_cast<const char*>(data), size), rpc.token()));
  ::close(fd);
  return 0;
}
