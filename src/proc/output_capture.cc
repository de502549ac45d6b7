// SPDX-License-Identifier: MIT
// OutputCapture: bounded head + rolling tail of a byte stream.
#include "proc/output_capture.h"

#include <algorithm>

namespace hermes::proc {

uint64_t count_chars(std::string_view bytes) {
  uint64_t n = 0;
  for (unsigned char c : bytes) n += (c & 0xC0) != 0x80;
  return n;
}

void OutputCapture::append(std::string_view bytes) {
  total_bytes_ += bytes.size();
  total_chars_ += count_chars(bytes);
  if (prefix_.size() < prefix_cap_) {
    prefix_.append(bytes.substr(0, prefix_cap_ - prefix_.size()));
  }
  if (bytes.size() >= tail_cap_) {
    tail_.assign(bytes.substr(bytes.size() - tail_cap_));
    return;
  }
  tail_.append(bytes);
  // Erasing only when twice the window keeps appends amortised O(1).
  if (tail_.size() > 2 * tail_cap_) tail_.erase(0, tail_.size() - tail_cap_);
}

std::string_view OutputCapture::tail() const {
  std::string_view view = tail_;
  return view.size() > tail_cap_ ? view.substr(view.size() - tail_cap_) : view;
}

void OutputCapture::drop_suffix(size_t n) {
  n = std::min(n, tail_.size());
  std::string_view dropped = std::string_view(tail_).substr(tail_.size() - n);
  total_chars_ -= std::min<uint64_t>(total_chars_, count_chars(dropped));
  total_bytes_ -= n;
  tail_.resize(tail_.size() - n);
  if (prefix_.size() > total_bytes_) prefix_.resize(total_bytes_);
}

}  // namespace hermes::proc
