// SPDX-License-Identifier: MIT
#include "tools/background_jobs/background_jobs.h"

namespace hermes::background_jobs {

void BackgroundJobs::on_session_end() { processes_.end_all(); }

proc::ProcessRegistry& session_jobs(registry::Session& session) {
  return session.state<BackgroundJobs>().processes();
}

}  // namespace hermes::background_jobs
