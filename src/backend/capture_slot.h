// SPDX-License-Identifier: MIT
// The write capture (proc/write_capture.h) a backend's commands start
// under, for the backends whose commands run under a supervisor of this
// server (local, sandbox).
#pragma once

#include "proc/write_capture.h"

#include <memory>
#include <mutex>

namespace hermes::backend {

class CaptureSlot {
 public:
  // Keeps `capture` for the commands started from now on; false, and
  // nothing changes, when this kernel does not let a command install it.
  // `no_new_privs`: the command may run with no_new_privs set (else the
  // filter needs CAP_SYS_ADMIN).
  bool set(std::shared_ptr<const proc::WriteCapture> capture, bool no_new_privs);
  // Null until set.
  std::shared_ptr<const proc::WriteCapture> get() const;

 private:
  mutable std::mutex mu_;
  std::shared_ptr<const proc::WriteCapture> capture_;  // mu_
};

}  // namespace hermes::backend
