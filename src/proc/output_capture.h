// SPDX-License-Identifier: MIT
// Bounded capture of a child's output stream: the first N bytes verbatim and
// a rolling window of the last M bytes, with exact byte and code-point totals.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace hermes::proc {

// Memory stays under prefix_cap + 2 * tail_cap whatever the stream length.
// Not thread-safe.
class OutputCapture {
 public:
  OutputCapture(size_t prefix_cap, size_t tail_cap)
      : prefix_cap_(prefix_cap), tail_cap_(tail_cap) {}

  void append(std::string_view bytes);

  uint64_t total_bytes() const { return total_bytes_; }
  // Code points, counting each byte that does not continue a UTF-8 sequence.
  uint64_t total_chars() const { return total_chars_; }
  // True when `prefix()` holds the whole stream.
  bool complete() const { return total_bytes_ <= prefix_cap_; }
  // The first min(total, prefix_cap) bytes.
  const std::string& prefix() const { return prefix_; }
  // The last min(total, tail_cap) bytes (may start mid code point).
  std::string_view tail() const;

  // Drops the last `n` bytes of the stream (the shell wrapper's trailer) from
  // both views and the totals. `n` must not exceed `tail().size()`.
  void drop_suffix(size_t n);

 private:
  size_t prefix_cap_;
  size_t tail_cap_;
  std::string prefix_;
  std::string tail_;  // grows to 2 * tail_cap_, then the front is erased
  uint64_t total_bytes_ = 0;
  uint64_t total_chars_ = 0;
};

// Code points in `bytes` by the same rule as `OutputCapture::total_chars`.
uint64_t count_chars(std::string_view bytes);

}  // namespace hermes::proc
