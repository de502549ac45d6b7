// SPDX-License-Identifier: MIT
// The session's background jobs: started by terminal(background=true),
// managed by process. Ended when the session ends, before any session state
// is destroyed (`on_session_end`), so a job never outlives what it uses of
// another state (the terminal's shell snapshot).
#pragma once

#include "proc/process_registry.h"
#include "registry/session.h"

namespace hermes::background_jobs {

// Thread-safe (ProcessRegistry is).
class BackgroundJobs final : public registry::SessionState {
 public:
  proc::ProcessRegistry& processes() { return processes_; }
  // Kills every job (group SIGTERM, then SIGKILL) and joins their readers.
  void on_session_end() override;

 private:
  proc::ProcessRegistry processes_;
};

// The background jobs of `session`.
proc::ProcessRegistry& session_jobs(registry::Session& session);

}  // namespace hermes::background_jobs
