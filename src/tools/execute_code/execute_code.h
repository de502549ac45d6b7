// SPDX-License-Identifier: MIT
// execute_code: its typed arguments, its outcomes, and the handler that runs
// one script with the sandbox tools callable from it
// (docs/tools/execute_code.md). The JSON shapes live in execute_code_json.cc.
#pragma once

#include "core/result.h"
#include "registry/tool.h"

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace hermes::registry {
class Registry;
}  // namespace hermes::registry

namespace hermes::execute_code {

struct ExecuteCodeParams {
  std::string code;    // never blank
  bool reset = false;  // restart the session's kernel first
};

enum class ScriptStatus { kSuccess, kError, kTimeout, kInterrupted };

// stdout was longer than the model sees: the middle was omitted.
struct ScriptTruncation {
  uint64_t captured_bytes = 0;
  uint64_t total_bytes = 0;
  uint64_t omitted_bytes = 0;
  std::string warning;
  std::string spill_path;  // the whole stdout, cleaned; empty when not written
};

// A script that ran to its end, whatever that was.
struct ScriptRan {
  ScriptStatus status = ScriptStatus::kSuccess;
  std::string output;  // cleaned stdout, then the timeout, interruption or stderr notes
  // Set for every status but success: kTimeout, kCancelled (interrupted: no
  // `error` key), kInvalidArgument (the script exited non-zero; the message
  // is its stderr).
  std::optional<Error> error;
  int tool_calls_made = 0;
  double duration_seconds = 0;  // rounded to 2 decimals
  std::optional<ScriptTruncation> truncation;
  std::optional<std::string> notice;  // commands are not write-fenced, once per session
  // The kernel: why this call ran in a fresh one (its globals are gone),
  // whether it died or was killed during the call, and the PNGs it showed.
  std::optional<std::string> fresh_kernel;
  bool kernel_state_lost = false;
  std::vector<std::string> images;
};

// The run could not start or finish (backend, staging, spawn): `status: "error"`.
struct ScriptFailed {
  Error error;
  int tool_calls_made = 0;
  double duration_seconds = 0;
};

using ExecuteCodeOutput = std::variant<ScriptRan, ScriptFailed>;

// Runs execute_code (not named so: that is the folder's namespace). No
// interpreter here is an error (kUnavailable); the rest are outputs,
// `execute_code_failure` names their failure.
Result<ExecuteCodeOutput> run_execute_code(const ExecuteCodeParams& params,
                                           registry::CallContext& ctx);
const Error* execute_code_failure(const ExecuteCodeOutput& output);

// Starts a warm spare kernel for the next session's first call
// (code_execution.prestart_kernel, local backend only); called when a
// session lists its tools. Returns at once.
void prestart_kernel(const registry::Registry& registry, const registry::Services& services);

void register_execute_code(registry::Registry& registry);

}  // namespace hermes::execute_code
