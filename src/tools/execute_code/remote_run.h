// SPDX-License-Identifier: MIT
// One execute_code run on a backend other than the plain local one
// (docs/tools/execute_code.md): the script and the file-RPC module are shipped to
// a private directory on the target, run there with python3, and the
// script's tool calls are answered by polling that directory.
#pragma once

#include "backend/backend.h"
#include "core/result.h"
#include "rpc/rpc_handler.h"
#include "tools/execute_code/script_run.h"

#include <chrono>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

namespace hermes::execute_code {

struct RemoteRunRequest {
  std::string code;
  std::string module_source;  // hermes_tools.py with RpcTransport::kFiles
  std::string timezone;       // passed as TZ; empty: the target's own
  // Variables unset for the script (shell identifiers; others are ignored).
  std::vector<std::string> unset_names;
  std::chrono::milliseconds timeout{300000};
};

// Runs `request` in `<backend temp_dir>/hermes_exec_<12hex>` on the target;
// `handler` answers the script's tool calls on the calling thread. stdout
// and stderr stay apart as in a local run (upstream merges them; docs/ARCHITECTURE.md, Backends::
// wants the same results on every backend), stderr capped by run_bash.
// `stop` interrupts the run; the source is also requested when the script
// ends, which cancels a tool call still in flight. The directory is removed
// whatever happens. Errors: no python3 on the target (the contract's
// message), staging failures and transport failures (the backend's message).
Result<RunResult> run_remote_script(backend::Backend& backend, const RemoteRunRequest& request,
                                    rpc::RpcHandler& handler, std::stop_source& stop);

// The shell line that stops a script, printing a marker, when the target has
// no python3; whether `output` holds that marker; the contract's error then.
std::string python_preflight();
bool reports_no_python(std::string_view output);
Error python_unavailable(const backend::Backend& backend);

// `unset <names>` and a newline, for the names that are shell identifiers
// (others are ignored); empty when none is.
std::string unset_line(const std::vector<std::string>& names);

// The command that removes a run's directory after the run was cut short.
// Killing the local launcher does not end the script on every target (an
// ssh or docker client dies alone), so it first kills the python recorded
// in `<dir>/pids` when that process still carries the run's HERMES_RPC_DIR
// (so a reused pid is never hit), with its process group when the run's
// own shell leads that group. Linux /proc on the target; elsewhere only the
// directory goes.
std::string cleanup_script(const std::string& dir);

}  // namespace hermes::execute_code
