// SPDX-License-Identifier: MIT
// execute_code's settings, read from the configuration at call time
// (docs/tools/execute_code.md), and where scripts run.
#pragma once

#include "tools/execute_code/interpreter.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hermes {
class Config;
}  // namespace hermes

namespace hermes::execute_code {

struct ExecSettings {
  int64_t timeout_s = 300;
  int64_t max_tool_calls = 50;
  ExecMode mode = ExecMode::kProject;
  bool mode_valid = true;  // false: an unknown mode fell back to project
  std::vector<std::string> passthrough;
  bool redact = true;
  std::string spill_dir;  // empty: no spill file
  std::string timezone;   // `timezone` / HERMES_TIMEZONE, passed as TZ
  // The session's kernel (local backend): on, its limits, and the grace
  // between SIGINT and the kill.
  bool kernel = true;
  int64_t max_kernels = 8;
  int64_t kernel_idle_timeout_s = 1800;
  int64_t kernel_memory_mb = 4096;  // 0: no limit
  double interrupt_grace_s = 2.0;
  // Keep one kernel started ahead of a session's first call (local backend).
  bool prestart_kernel = false;
};

ExecSettings read_settings(const Config& config);

// Whether scripts run on another backend, which brings its own python3: the
// file tools' rule (docs/ARCHITECTURE.md, Backends), read from the same keys
// make_backend uses.
bool runs_elsewhere(const Config& config);

}  // namespace hermes::execute_code
