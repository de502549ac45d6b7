// SPDX-License-Identifier: MIT
// One persistent Python process that runs execute_code cells in a single
// namespace (docs/tools/execute_code.md, The kernel): its staging directory
// (hermes_tools.py and the driver), the RPC socket serving its cells' tool
// calls, its control socket and output pipes, and its whole process tree,
// held by a proc::ProcessTree under the containment of a per-call script.
#pragma once

#include "core/result.h"
#include "proc/process_tree.h"
#include "proc/unique_fd.h"
#include "rpc/rpc_server.h"
#include "tools/execute_code/script_run.h"
#include "tools/execute_code/staging.h"
#include "tools/execute_code/tool_bridge.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

namespace hermes::execute_code {

struct KernelSpec {
  std::string module_source;     // hermes_tools.py
  std::string interpreter;       // absolute path
  std::string cwd;               // empty: the staging directory
  std::vector<std::string> env;  // scrubbed; the RPC and Python settings are added
  int write_fence_fd = -1;       // the Landlock ruleset the tree runs under; -1: none
  uint64_t memory_bytes = 0;     // RLIMIT_AS of the kernel and its children; 0: none
};

struct CellRequest {
  std::string code;
  std::chrono::milliseconds timeout{300000};
  // After SIGINT (a stop or the timeout), how long the cell has to stop
  // before the kernel is killed.
  std::chrono::milliseconds grace{2000};
};

struct CellResult {
  // end: kInterrupted / kTimedOut when the call was stopped or ran out of
  // time; exit_code: 0, the cell's SystemExit code, 1 for an uncaught
  // exception, or the kernel's own when it died.
  RunResult run;
  std::vector<std::string> images;  // the PNGs the cell showed
  // The kernel died or was killed during the cell: its state is gone.
  bool kernel_lost = false;
};

// Thread-safety: run_cell is for one thread at a time; kill() and alive()
// may be called from any thread.
class Kernel {
 public:
  // Starts the interpreter; it is ready for a cell as soon as this returns
  // (the first cell waits for Python's start-up). kIo on setup failures.
  static Result<std::unique_ptr<Kernel>> start(const KernelSpec& spec);
  // Kills what is left of the tree, stops the RPC server, removes the
  // staging directory.
  ~Kernel();
  Kernel(const Kernel&) = delete;
  Kernel& operator=(const Kernel&) = delete;

  // Runs `request.code`; `handler` answers its tool calls. `stop` interrupts
  // it like the timeout: SIGINT to the kernel's process group, then, past
  // the grace, the whole tree is killed. The source is also requested when
  // the cell ends, which cancels a tool call a thread of the cell still has
  // in flight. Returns once the cell is done and its output drained (or the
  // kernel is gone).
  CellResult run_cell(const CellRequest& request, rpc::RpcHandler& handler, std::stop_source& stop);

  // False once the kernel exited, crashed or was killed.
  bool alive() const;
  // Ends the whole tree (asynchronously: the supervisor does it).
  void kill() const;
  pid_t pid() const { return tree_.pid(); }

 private:
  class CellLoop;
  Kernel(StagingDir staging, std::unique_ptr<rpc::RpcServer> server, proc::ProcessTree tree,
         proc::UniqueFd control, OutputPipe out, OutputPipe err);
  bool send_code(const std::string& code, std::chrono::milliseconds timeout);

  StagingDir staging_;
  std::unique_ptr<rpc::RpcServer> server_;
  BridgeSlot bridge_;
  std::jthread rpc_thread_;
  proc::ProcessTree tree_;
  proc::UniqueFd control_;  // our end of the control socket
  OutputPipe out_;          // read ends only, once started
  OutputPipe err_;
  std::atomic<bool> gone_{
      false};  // the tree's status pipe reached EOF or the control socket closed
};

}  // namespace hermes::execute_code
