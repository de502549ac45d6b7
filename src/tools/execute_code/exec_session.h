// SPDX-License-Identifier: MIT
// execute_code's per-session state: the runs in progress (stopped when the
// session ends, which kills their process trees), the session's kernel and
// the interpreter probe results.
#pragma once

#include "registry/session.h"
#include "tools/execute_code/kernel_pool.h"

#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>

namespace hermes::execute_code {

// Thread-safe.
class ExecSession : public registry::SessionState {
 public:
  // Stops every run still registered; each run then kills its tree.
  ~ExecSession() override;
  // Kills the session's kernel (a cell still running then ends).
  void on_session_end() override;

  // The session's kernel slot in the server's pool, opened on first use.
  KernelSlot& kernel_slot();

  // Registers a run's stop source for the lifetime of the returned guard.
  class RunGuard {
   public:
    RunGuard(ExecSession& owner, std::list<std::stop_source>::iterator it)
        : owner_(owner), it_(it) {}
    ~RunGuard();
    RunGuard(const RunGuard&) = delete;
    RunGuard& operator=(const RunGuard&) = delete;

   private:
    ExecSession& owner_;
    std::list<std::stop_source>::iterator it_;
  };
  RunGuard register_run(std::stop_source source);

  // `probe(program)`, remembered for this session (a probe starts Python).
  bool probe_cached(const std::string& program,
                    const std::function<bool(const std::string&)>& probe);

  // True the first time only: a bad config value is warned about once.
  bool first_mode_warning();

 private:
  std::mutex mu_;
  std::list<std::stop_source> runs_;    // mu_
  std::map<std::string, bool> probes_;  // mu_
  bool mode_warned_ = false;            // mu_
  std::shared_ptr<KernelSlot> kernel_;  // mu_
};

}  // namespace hermes::execute_code
