// SPDX-License-Identifier: MIT
#include "proc/unix_socket.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>

namespace hermes::proc {
namespace {

Result<sockaddr_un> address_of(const std::string& path) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path.size() >= sizeof addr.sun_path) {
    return Error::InvalidArgument("socket path too long: " + path);
  }
  path.copy(addr.sun_path, path.size());
  return addr;
}

}  // namespace

Result<UniqueFd> listen_unix(const std::string& path, mode_t mode, int backlog) {
  HERMES_ASSIGN_OR_RETURN(sockaddr_un addr, address_of(path));
  UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  if (!fd.valid()) return Error::FromErrno(errno, "socket");
  if (::bind(fd.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    return Error::FromErrno(errno, "bind \"" + path + "\"");
  }
  if (::chmod(path.c_str(), mode) != 0 || ::listen(fd.get(), backlog) != 0) {
    Error error = Error::FromErrno(errno, "listen \"" + path + "\"");
    ::unlink(path.c_str());
    return error;
  }
  return fd;
}

Result<UniqueFd> connect_unix(const std::string& path) {
  HERMES_ASSIGN_OR_RETURN(sockaddr_un addr, address_of(path));
  UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!fd.valid()) return Error::FromErrno(errno, "socket");
  if (::connect(fd.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    return Error::FromErrno(errno, "connect \"" + path + "\"");
  }
  return fd;
}

}  // namespace hermes::proc
