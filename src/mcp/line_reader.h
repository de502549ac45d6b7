// SPDX-License-Identifier: MIT
// Newline-delimited framing over a file descriptor with a hard line limit:
// an oversized line is skipped (never buffered whole) and reported.
// Not thread-safe: one reader thread owns it.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace hermes::mcp {

class LineReader {
 public:
  enum class Status { kLine, kTooLong, kEof };

  // `spin`: how long a read that finds no input polls before it sleeps.
  LineReader(int fd, size_t max_line_bytes,
             std::chrono::microseconds spin = std::chrono::microseconds(0))
      : fd_(fd), max_(max_line_bytes), spin_(spin) {}

  // Reads the next line (without its `\n`; a trailing `\r` is dropped too).
  // kTooLong: the line passed the limit and was discarded up to its newline.
  // kEof: end of input (a final unterminated line is returned first).
  Status next(std::string& line);
  // Whether input after the last line returned has already been read (a
  // further message, or the start of one).
  bool has_buffered() const { return !buffer_.empty(); }

 private:
  // Appends up to one read(2) worth to buffer_; false on EOF or error.
  bool fill();
  // Polls `fd_` for up to `spin_`.
  void spin_for_input() const;

  int fd_;
  size_t max_;
  std::chrono::microseconds spin_;
  std::string buffer_;
  size_t scan_from_ = 0;
  bool eof_ = false;
};

}  // namespace hermes::mcp
