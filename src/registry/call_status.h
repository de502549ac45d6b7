// SPDX-License-Identifier: MIT
// What a long call has produced so far (docs/http.md, Progress and Tasks):
// how many bytes of output and its last line, which the call's progress
// notifications and its task's statusMessage show while it runs. The tool
// feeds its raw output as it arrives; readers get the line cleaned (ANSI
// stripped, UTF-8 sanitised, secrets redacted, at most 200 bytes).
// Thread-safe.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>

namespace hermes::registry {

class CallStatus {
 public:
  void add_output(std::string_view bytes);

  struct View {
    uint64_t bytes = 0;
    std::string last_line;  // cleaned; empty before any printable line
  };
  View view() const;

 private:
  mutable std::mutex mu_;
  uint64_t bytes_ = 0;
  std::string line_;       // the line being written (its head, capped)
  std::string last_line_;  // the last finished line that was not blank
};

// "<label>: running for <N> s", and when the call has written output
// ", <B> bytes of output; last line: <line>".
std::string running_status(std::string_view label, int64_t seconds, const CallStatus* status);

}  // namespace hermes::registry
