// SPDX-License-Identifier: MIT
#include "proc/fd_passing.h"

#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace hermes::proc {
namespace {

// At most this many descriptors are taken from one message: a peer may send
// more than the one expected, and each one taken must be closed again.
constexpr size_t kMostTaken = 4;

// One byte with room for descriptors, on the stack.
struct FdMessage {
  char byte = 0;
  iovec data{&byte, 1};
  alignas(cmsghdr) char control[CMSG_SPACE(kMostTaken * sizeof(int))] = {};
  msghdr msg{};
  FdMessage() {
    msg.msg_iov = &data;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
  }
  FdMessage(const FdMessage&) = delete;
  FdMessage& operator=(const FdMessage&) = delete;
};

}  // namespace

bool send_fd(int socket, int fd) noexcept {
  FdMessage m;
  m.msg.msg_controllen = CMSG_SPACE(sizeof(int));
  cmsghdr* c = CMSG_FIRSTHDR(&m.msg);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int));
  std::memcpy(CMSG_DATA(c), &fd, sizeof(int));
  ssize_t n;
  do {
    n = ::sendmsg(socket, &m.msg, MSG_NOSIGNAL);
  } while (n < 0 && errno == EINTR);
  return n == 1;
}

int receive_fd(int socket) noexcept {
  FdMessage m;
  ssize_t n;
  do {
    n = ::recvmsg(socket, &m.msg, MSG_CMSG_CLOEXEC);
  } while (n < 0 && errno == EINTR);
  // Every descriptor that came is ours now: one alone is the answer, any
  // other is closed (the kernel closed those there was no room for).
  int taken[kMostTaken];
  size_t count = 0;
  for (cmsghdr* c = n > 0 ? CMSG_FIRSTHDR(&m.msg) : nullptr; c != nullptr;
       c = CMSG_NXTHDR(&m.msg, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
    size_t fds = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (size_t i = 0; i < fds && count < kMostTaken; ++i) {
      std::memcpy(&taken[count++], CMSG_DATA(c) + i * sizeof(int), sizeof(int));
    }
  }
  if (n == 1 && count == 1) return taken[0];
  for (size_t i = 0; i < count; ++i) ::close(taken[i]);
  return -1;
}

}  // namespace hermes::proc
