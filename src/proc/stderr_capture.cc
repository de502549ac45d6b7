// SPDX-License-Identifier: MIT
#include "proc/stderr_capture.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace hermes::proc {

StderrCapture::StderrCapture(size_t cap) : cap_(cap) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return;
  read_ = UniqueFd(fds[0]);
  write_ = UniqueFd(fds[1]);
}

StderrCapture::~StderrCapture() { finish(); }

void StderrCapture::start() {
  write_ = UniqueFd();
  if (read_.valid()) thread_ = std::thread([this] { drain(); });
}

std::string StderrCapture::finish() {
  if (thread_.joinable()) thread_.join();
  return std::move(text_);
}

void StderrCapture::drain() {
  char buf[4096];
  for (;;) {
    ssize_t n = ::read(read_.get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    size_t room = cap_ - std::min(cap_, text_.size());
    text_.append(buf, std::min(room, static_cast<size_t>(n)));
  }
}

}  // namespace hermes::proc
