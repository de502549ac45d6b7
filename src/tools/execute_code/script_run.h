// SPDX-License-Identifier: MIT
// One execute_code run: a private staging directory with the generated
// module and the script, the RPC server on its own thread, the script's
// process tree, and the poll loop that bounds output, time and interruption.
#pragma once

#include "core/result.h"
#include "proc/write_capture.h"
#include "registry/call_status.h"
#include "rpc/rpc_handler.h"
#include "tools/execute_code/script_output.h"

#include <chrono>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace hermes::execute_code {

struct RunRequest {
  std::string code;
  std::string module_source;     // hermes_tools.py
  std::string interpreter;       // absolute path
  std::string cwd;               // empty: run in the staging directory
  std::vector<std::string> env;  // scrubbed; the RPC and Python settings are added
  std::chrono::milliseconds timeout{300000};
  int write_fence_fd = -1;  // the Landlock ruleset the tree runs under; -1: none
  // Keeps what the tree is about to change (proc/write_capture.h); null: none.
  std::shared_ptr<const proc::WriteCapture> write_capture;
  registry::CallStatus* status = nullptr;  // fed the output as it arrives; may be null
};

enum class RunEnd { kExited, kTimedOut, kInterrupted };

struct RunResult {
  RunEnd end = RunEnd::kExited;
  int exit_code = -1;  // minus the signal number when a signal ended it; -1 unknown
  ScriptOutput output;
};

// Runs `request` to its end; `handler` answers the script's tool calls on
// the RPC thread. `stop` interrupts the run (status interrupted); the source
// is also requested when the run ends, which cancels a tool call still in
// flight. The staging directory and socket are removed and every process the
// script started is dead when this returns. Errors (kIo) only for setup
// failures: staging, socket, fork.
Result<RunResult> run_script(const RunRequest& request, rpc::RpcHandler& handler,
                             std::stop_source& stop);

}  // namespace hermes::execute_code
