// SPDX-License-Identifier: MIT
// Newline-delimited framing over a file descriptor with a hard line limit:
// an oversized line is skipped (never buffered whole) and reported.
// Not thread-safe: one reader thread owns it.
#pragma once

#include <cstddef>
#include <string>

namespace hermes::mcp {

class LineReader {
 public:
  enum class Status { kLine, kTooLong, kEof };

  LineReader(int fd, size_t max_line_bytes) : fd_(fd), max_(max_line_bytes) {}

  // Reads the next line (without its `\n`; a trailing `\r` is dropped too).
  // kTooLong: the line passed the limit and was discarded up to its newline.
  // kEof: end of input (a final unterminated line is returned first).
  Status next(std::string& line);

 private:
  // Appends up to one read(2) worth to buffer_; false on EOF or error.
  bool fill();

  int fd_;
  size_t max_;
  std::string buffer_;
  size_t scan_from_ = 0;
  bool eof_ = false;
};

}  // namespace hermes::mcp
