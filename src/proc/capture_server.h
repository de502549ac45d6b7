// SPDX-License-Identifier: MIT
// The write capture (write_capture.h) for commands this server does not
// start itself: a container's, run by `docker exec`. Such a command starts
// under hermes-capture-exec (src/capture_exec/), which installs the filter
// and hands its listener over a Unix socket in a folder bound into the
// container; a thread of this server takes it, and a forked copy of this
// server serves it as a tree's supervisor serves its own.
#pragma once

#include "core/result.h"
#include "proc/unique_fd.h"
#include "proc/write_capture.h"

#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace hermes::proc {

struct ServingChild;

class CaptureServer {
 public:
  // What the folder holds.
  static constexpr const char* kSocketName = "socket";
  static constexpr const char* kHelperName = "capture-exec";

  // A new folder under `temp_dir` with the socket and a copy of the
  // static helper, and the thread serving them. Unavailable when the helper
  // is not built, or the kernel offers no capture.
  static Result<std::unique_ptr<CaptureServer>> start(const std::string& temp_dir);
  // Stops serving, ending the children that serve (a filtered call still
  // waiting then fails with ENOSYS), and removes the folder.
  ~CaptureServer();
  CaptureServer(const CaptureServer&) = delete;
  CaptureServer& operator=(const CaptureServer&) = delete;

  const std::string& folder() const { return folder_; }
  // Listeners handed over from now on are served for `capture`.
  void set(std::shared_ptr<const WriteCapture> capture);
  // Whether a capture is set: only then should a command start under the
  // helper.
  bool capturing() const;

 private:
  CaptureServer(std::string folder, UniqueFd socket, UniqueFd wake);
  std::shared_ptr<const WriteCapture> capture() const;
  bool accept_listener(std::vector<ServingChild>& served);
  void serve(std::stop_token stop);

  const std::string folder_;
  const UniqueFd socket_;
  const UniqueFd wake_;  // an eventfd: written when the server stops
  mutable std::mutex mu_;
  std::shared_ptr<const WriteCapture> capture_;  // mu_
  std::jthread thread_;
};

// The static helper's path: next to this program, else where this build
// made it; empty when neither has it.
std::string capture_exec_program();

}  // namespace hermes::proc
