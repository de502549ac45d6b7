// SPDX-License-Identifier: MIT
// One persistent Python process that runs execute_code cells in a single
// namespace (docs/tools/execute_code.md, The kernel): what a cell asks and
// what it gets back, whichever side of a backend the kernel runs on
// (local_kernel.h on this host, stream_kernel.h on a backend's target).
#pragma once

#include "rpc/rpc_handler.h"
#include "tools/execute_code/script_run.h"

#include <chrono>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

namespace hermes::execute_code {

struct CellRequest {
  std::string code;
  std::chrono::milliseconds timeout{300000};
  // After SIGINT (a stop or the timeout), how long the cell has to stop
  // before the kernel is killed.
  std::chrono::milliseconds grace{2000};
  registry::CallStatus* status = nullptr;  // fed the output as it arrives; may be null
};

struct CellResult {
  // end: kInterrupted / kTimedOut when the call was stopped or ran out of
  // time; exit_code: 0, the cell's SystemExit code, 1 for an uncaught
  // exception, or the kernel's own when it died.
  RunResult run;
  std::vector<std::string> images;  // the PNGs the cell showed
  // The kernel died or was killed during the cell: its state is gone.
  bool kernel_lost = false;
  // The cell raised MemoryError past the kernel's memory cap: the kernel
  // was stopped (kernel_lost is set too).
  bool memory_exceeded = false;
};

// How a cell ended, as the driver's `done` reply says (kernel_driver.h).
struct CellEnd {
  enum Kind { kOk, kExit, kInterrupted, kMemory } kind = kOk;
  int exit_code = 0;  // kExit
};
// Parses the text after `done `; nullopt for anything else.
std::optional<CellEnd> parse_cell_end(std::string_view reply);
// Records `end` in `result`; `interrupting`: the host sent the SIGINT, so a
// KeyboardInterrupt is its doing, not the cell's. kMemory also marks the
// kernel lost: the caller stops it.
void record_cell_end(const CellEnd& end, bool interrupting, CellResult& result);

// Thread-safety: run_cell is for one thread at a time; kill() and alive()
// may be called from any thread.
class Kernel {
 public:
  virtual ~Kernel() = default;

  // Runs `request.code`; `handler` answers its tool calls. `stop` interrupts
  // it like the timeout: SIGINT to the kernel's process group, then, past
  // the grace, the whole tree is killed. The source is also requested when
  // the cell ends, which cancels a tool call a thread of the cell still has
  // in flight. Returns once the cell is done and its output drained (or the
  // kernel is gone).
  virtual CellResult run_cell(const CellRequest& request, rpc::RpcHandler& handler,
                              std::stop_source& stop) = 0;
  // False once the kernel exited, crashed or was killed.
  virtual bool alive() const = 0;
  // Ends the whole tree (asynchronously; the destructor waits for it).
  virtual void kill() const = 0;
};

}  // namespace hermes::execute_code
