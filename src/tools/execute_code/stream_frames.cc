// SPDX-License-Identifier: MIT
#include "tools/execute_code/stream_frames.h"

#include "core/strings.h"

namespace hermes::execute_code {
namespace {

// `kind` and the digits of the size; a header longer than this is garbage.
constexpr size_t kMaxHeader = 64;

}  // namespace

std::string encode_frame(std::string_view kind, std::string_view data) {
  std::string out;
  out.reserve(kind.size() + data.size() + 24);
  out.append(kind).append(" ").append(std::to_string(data.size())).append("\n").append(data);
  return out;
}

std::optional<Frame> FrameReader::next() {
  if (broken_) return std::nullopt;
  size_t eol = pending_.find('\n');
  if (eol == std::string::npos) {
    broken_ = pending_.size() > kMaxHeader;
    return std::nullopt;
  }
  std::string_view header(pending_.data(), eol);
  size_t space = header.find(' ');
  auto size = space == std::string_view::npos ? std::nullopt : parse_int(header.substr(space + 1));
  if (space == 0 || !size || *size < 0 || static_cast<size_t>(*size) > max_frame_) {
    broken_ = true;
    return std::nullopt;
  }
  size_t end = eol + 1 + static_cast<size_t>(*size);
  if (pending_.size() < end) return std::nullopt;
  Frame frame{std::string(header.substr(0, space)), pending_.substr(eol + 1, end - eol - 1)};
  pending_.erase(0, end);
  return frame;
}

}  // namespace hermes::execute_code
