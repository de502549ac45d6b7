// SPDX-License-Identifier: MIT
#include "backend/capture_slot.h"

namespace hermes::backend {

bool CaptureSlot::set(std::shared_ptr<const proc::WriteCapture> capture, bool no_new_privs) {
  if (!proc::write_capture_available(no_new_privs)) return false;
  std::lock_guard lock(mu_);
  capture_ = std::move(capture);
  return true;
}

std::shared_ptr<const proc::WriteCapture> CaptureSlot::get() const {
  std::lock_guard lock(mu_);
  return capture_;
}

}  // namespace hermes::backend
