// SPDX-License-Identifier: MIT
#include "core/capped_read.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace hermes {
namespace {

class FdCloser {
 public:
  explicit FdCloser(int fd) : fd_(fd) {}
  ~FdCloser() { ::close(fd_); }
  FdCloser(const FdCloser&) = delete;
  FdCloser& operator=(const FdCloser&) = delete;

 private:
  int fd_;
};

Error too_large(const std::string& path, size_t max_bytes) {
  return Error::TooLarge("\"" + path + "\" is larger than the " + std::to_string(max_bytes) +
                         "-byte limit for this file");
}

Result<std::string> read_all_of(int fd, const std::string& path, size_t size_hint, size_t max_bytes,
                                std::stop_token stop) {
  std::string data;
  data.reserve(size_hint);
  char chunk[65536];
  while (true) {
    if (stop.stop_requested()) return Error::Cancelled("reading \"" + path + "\" was cancelled");
    ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n == 0) return data;
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Error::FromErrno(errno, "read \"" + path + "\"");
    if (data.size() + static_cast<size_t>(n) > max_bytes) return too_large(path, max_bytes);
    data.append(chunk, static_cast<size_t>(n));
  }
}

}  // namespace

Result<std::string> read_capped_file(const std::string& path, size_t max_bytes,
                                     std::stop_token stop) {
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return Error::FromErrno(errno, "open \"" + path + "\"");
  FdCloser closer(fd);
  struct stat st;
  if (::fstat(fd, &st) != 0) return Error::FromErrno(errno, "stat \"" + path + "\"");
  if (!S_ISREG(st.st_mode)) {
    return Error::InvalidArgument("\"" + path + "\" is not a regular file");
  }
  if (static_cast<uint64_t>(st.st_size) > max_bytes) return too_large(path, max_bytes);
  return read_all_of(fd, path, static_cast<size_t>(st.st_size), max_bytes, stop);
}

}  // namespace hermes
