// SPDX-License-Identifier: MIT
#include "tools/execute_code/exec_settings.h"

#include "core/config.h"
#include "core/redact.h"

namespace hermes::execute_code {

ExecSettings read_settings(const Config& config) {
  ExecSettings s;
  s.timeout_s = config.get_int("code_execution.timeout", 300);
  if (s.timeout_s <= 0) s.timeout_s = 300;
  s.max_tool_calls = config.get_int("code_execution.max_tool_calls", 50);
  if (s.max_tool_calls < 0) s.max_tool_calls = 50;
  ParsedMode parsed = parse_mode(config.get_string("code_execution.mode", "project"));
  s.mode = parsed.mode;
  s.mode_valid = parsed.valid;
  s.passthrough = config.get_string_list("terminal.env_passthrough");
  s.redact = redaction_enabled(config);
  if (!config.home().empty()) s.spill_dir = config.home() + "/cache/exec";
  s.timezone = config.get_string("timezone", "", "HERMES_TIMEZONE");
  s.kernel = config.get_bool("code_execution.kernel", true);
  s.max_kernels = config.get_int("code_execution.max_kernels", 8);
  if (s.max_kernels <= 0) s.max_kernels = 8;
  s.kernel_idle_timeout_s = config.get_int("code_execution.kernel_idle_timeout", 1800);
  if (s.kernel_idle_timeout_s <= 0) s.kernel_idle_timeout_s = 1800;
  s.kernel_memory_mb = config.get_int("code_execution.kernel_memory_mb", 4096);
  if (s.kernel_memory_mb < 0) s.kernel_memory_mb = 4096;
  s.interrupt_grace_s = config.get_double("code_execution.interrupt_grace", 2.0);
  if (s.interrupt_grace_s < 0) s.interrupt_grace_s = 2.0;
  s.prestart_kernel = config.get_bool("code_execution.prestart_kernel", false);
  return s;
}

bool runs_elsewhere(const Config& config) {
  return config.get_string("terminal.backend", "local", "TERMINAL_ENV") != "local" ||
         config.get_bool("terminal.portable_files", false);
}

}  // namespace hermes::execute_code
