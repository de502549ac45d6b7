// SPDX-License-Identifier: MIT
// The frames a kernel on a backend's target exchanges with the host over the
// launcher's stdin and stdout (kernel_driver.h, kStream): `<kind> <size>\n`
// then `size` bytes.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace hermes::execute_code {

struct Frame {
  std::string kind;
  std::string data;
};

std::string encode_frame(std::string_view kind, std::string_view data);

// Cuts a byte stream into frames. Not thread-safe.
class FrameReader {
 public:
  // A frame announcing more than `max_frame` bytes breaks the stream.
  explicit FrameReader(size_t max_frame) : max_frame_(max_frame) {}

  void append(std::string_view bytes) { pending_.append(bytes); }
  // The next complete frame; nullopt when more bytes are needed or the
  // stream is broken (a header that is not `<kind> <size>`, or too large).
  std::optional<Frame> next();
  bool broken() const { return broken_; }

 private:
  size_t max_frame_;
  std::string pending_;
  bool broken_ = false;
};

}  // namespace hermes::execute_code
