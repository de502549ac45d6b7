// SPDX-License-Identifier: MIT
#include "tools/execute_code/exec_session.h"

#include <utility>

namespace hermes::execute_code {

ExecSession::~ExecSession() {
  std::lock_guard lock(mu_);
  for (std::stop_source& run : runs_) run.request_stop();
  if (kernel_) kernel_->close();
}

void ExecSession::on_session_end() {
  std::lock_guard lock(mu_);
  if (kernel_) kernel_->close();
}

KernelSlot& ExecSession::kernel_slot() {
  std::lock_guard lock(mu_);
  if (!kernel_) kernel_ = KernelPool::shared()->open_slot();
  return *kernel_;
}

ExecSession::RunGuard ExecSession::register_run(std::stop_source source) {
  std::lock_guard lock(mu_);
  runs_.push_front(std::move(source));
  return RunGuard(*this, runs_.begin());
}

ExecSession::RunGuard::~RunGuard() {
  std::lock_guard lock(owner_.mu_);
  owner_.runs_.erase(it_);
}

bool ExecSession::probe_cached(const std::string& program,
                               const std::function<bool(const std::string&)>& probe) {
  {
    std::lock_guard lock(mu_);
    if (auto it = probes_.find(program); it != probes_.end()) return it->second;
  }
  bool ok = probe(program);  // outside the lock: it takes up to 5 s
  std::lock_guard lock(mu_);
  probes_[program] = ok;
  return ok;
}

bool ExecSession::first_mode_warning() {
  std::lock_guard lock(mu_);
  return !std::exchange(mode_warned_, true);
}

}  // namespace hermes::execute_code
