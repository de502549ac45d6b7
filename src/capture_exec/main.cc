// SPDX-License-Identifier: MIT
// hermes-capture-exec SOCKET -- PROGRAM [ARG...]
//
// Runs PROGRAM under the write capture's filter, whose listener it hands to
// the server listening at SOCKET (proc/capture_server.h): the first step of
// a command this server does not start itself, a container's. Linked
// statically, as it runs in whatever image the container has.
//
// No server at SOCKET: PROGRAM runs without the filter, and the store keeps
// what it changes by metadata only. A server that takes the connection but
// not the listener: PROGRAM does not run (exit 126), for no one would
// answer its writes.
#include "proc/fd_passing.h"
#include "proc/write_capture.h"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace {

// How long the server has to accept the connection (a full backlog makes
// connect wait), then to take the listener.
constexpr timeval kAnswerLimit{10, 0};

// A connection to the server at `path`, or -1.
int connect_to(const char* path) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (std::strlen(path) >= sizeof addr.sun_path) return -1;
  std::strcpy(addr.sun_path, path);
  int sock = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (sock < 0) return -1;
  ::setsockopt(sock, SOL_SOCKET, SO_SNDTIMEO, &kAnswerLimit, sizeof kAnswerLimit);
  ::setsockopt(sock, SOL_SOCKET, SO_RCVTIMEO, &kAnswerLimit, sizeof kAnswerLimit);
  if (::connect(sock, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(sock);
    return -1;
  }
  return sock;
}

// Installs the filter and hands its listener to the server at `path`.
void start_captured(const char* path) {
  int sock = connect_to(path);
  if (sock < 0) return;
  int listener = hermes::proc::capture_internal::install_filter();
  if (listener >= 0) {
    char answer = 0;
    if (!hermes::proc::send_fd(sock, listener) || ::recv(sock, &answer, 1, 0) != 1) {
      std::fputs(
          "hermes-capture-exec: the write capture's server did not take the command; "
          "it did not run\n",
          stderr);
      ::_exit(126);
    }
    ::close(listener);
  }
  ::close(sock);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4 || std::strcmp(argv[2], "--") != 0) {
    std::fputs("usage: hermes-capture-exec SOCKET -- PROGRAM [ARG...]\n", stderr);
    return 125;
  }
  start_captured(argv[1]);
  ::execvp(argv[3], argv + 3);
  int err = errno;
  std::fprintf(stderr, "hermes-capture-exec: %s: %s\n", argv[3], std::strerror(err));
  return err == ENOENT ? 127 : 126;
}
