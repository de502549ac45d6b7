// SPDX-License-Identifier: MIT
// A child's stderr kept apart from its output: a pipe whose write end goes to
// SpawnOptions::stderr_fd and whose read end is drained on a thread (so a
// chatty child never blocks on it), keeping the first `cap` bytes.
#pragma once

#include "proc/unique_fd.h"

#include <cstddef>
#include <string>
#include <thread>

namespace hermes::proc {

class StderrCapture {
 public:
  explicit StderrCapture(size_t cap);
  ~StderrCapture();
  StderrCapture(const StderrCapture&) = delete;
  StderrCapture& operator=(const StderrCapture&) = delete;

  // False when the pipe could not be made (errno tells why).
  bool ok() const { return read_.valid() && write_.valid(); }
  // For SpawnOptions::stderr_fd.
  int write_fd() const { return write_.get(); }
  // After spawning: closes our copy of the write end and starts draining.
  void start();
  // Waits for the child's end of the pipe to close; the text kept.
  std::string finish();

 private:
  void drain();

  size_t cap_;
  UniqueFd read_;
  UniqueFd write_;
  std::string text_;
  std::thread thread_;
};

}  // namespace hermes::proc
