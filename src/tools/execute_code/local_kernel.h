// SPDX-License-Identifier: MIT
// The kernel on this host (docs/tools/execute_code.md, The kernel): its
// staging directory (hermes_tools.py and the driver), the RPC socket serving
// its cells' tool calls, its control socket and output pipes, and its whole
// process tree, held by a proc::ProcessTree under the containment of a
// per-call script.
#pragma once

#include "core/result.h"
#include "proc/process_tree.h"
#include "proc/unique_fd.h"
#include "proc/write_capture.h"
#include "rpc/rpc_server.h"
#include "tools/execute_code/kernel.h"
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
  // Keeps what the tree is about to change (proc/write_capture.h); null: none.
  std::shared_ptr<const proc::WriteCapture> write_capture;
  uint64_t memory_bytes = 0;  // RLIMIT_AS of the kernel and its children; 0: none
};

class LocalKernel final : public Kernel {
 public:
  // Starts the interpreter; it is ready for a cell as soon as this returns
  // (the first cell waits for Python's start-up). kIo on setup failures.
  static Result<std::unique_ptr<Kernel>> start(const KernelSpec& spec);
  // Kills what is left of the tree, stops the RPC server, removes the
  // staging directory.
  ~LocalKernel() override;
  LocalKernel(const LocalKernel&) = delete;
  LocalKernel& operator=(const LocalKernel&) = delete;

  CellResult run_cell(const CellRequest& request, rpc::RpcHandler& handler,
                      std::stop_source& stop) override;
  bool alive() const override;
  // The supervisor ends the tree.
  void kill() const override;

 private:
  class CellLoop;
  LocalKernel(StagingDir staging, std::unique_ptr<rpc::RpcServer> server, proc::ProcessTree tree,
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
