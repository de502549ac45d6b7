// SPDX-License-Identifier: MIT
// A descriptor handed to another process over a Unix socket (SCM_RIGHTS),
// with one byte. Stack memory only: a forked child may call these.
#pragma once

namespace hermes::proc {

// True when `fd` went out, with its byte, on `socket`.
bool send_fd(int socket, int fd) noexcept;
// The descriptor that came with one byte on `socket` (close-on-exec), or
// -1: none came with it, the peer is gone, or the socket's time ran out.
int receive_fd(int socket) noexcept;

}  // namespace hermes::proc
