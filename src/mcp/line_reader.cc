// SPDX-License-Identifier: MIT
#include "mcp/line_reader.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>

namespace hermes::mcp {

void LineReader::spin_for_input() const {
  if (spin_.count() <= 0) return;
  const auto until = std::chrono::steady_clock::now() + spin_;
  struct pollfd ready {
    fd_, POLLIN, 0
  };
  while (::poll(&ready, 1, 0) == 0 && std::chrono::steady_clock::now() < until) {
  }
}

bool LineReader::fill() {
  char chunk[65536];
  spin_for_input();
  while (true) {
    ssize_t n = ::read(fd_, chunk, sizeof chunk);
    if (n > 0) {
      buffer_.append(chunk, static_cast<size_t>(n));
      return true;
    }
    if (n < 0 && errno == EINTR) continue;
    eof_ = true;
    return false;
  }
}

LineReader::Status LineReader::next(std::string& line) {
  bool skipping = false;
  while (true) {
    size_t nl = buffer_.find('\n', scan_from_);
    if (nl != std::string::npos) {
      if (skipping) {
        buffer_.erase(0, nl + 1);
        scan_from_ = 0;
        return Status::kTooLong;
      }
      line.assign(buffer_, 0, nl);
      buffer_.erase(0, nl + 1);
      scan_from_ = 0;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.size() > max_) return Status::kTooLong;
      return Status::kLine;
    }
    scan_from_ = buffer_.size();
    if (buffer_.size() > max_) {
      // Drop what we have; keep reading until the newline that ends it.
      skipping = true;
      buffer_.clear();
      scan_from_ = 0;
    }
    if (eof_ || !fill()) {
      if (skipping) return Status::kTooLong;
      if (buffer_.empty()) return Status::kEof;
      line.swap(buffer_);
      buffer_.clear();
      scan_from_ = 0;
      return Status::kLine;
    }
  }
}

}  // namespace hermes::mcp
