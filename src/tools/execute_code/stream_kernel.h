// SPDX-License-Identifier: MIT
// The kernel on a backend's target (docs/tools/execute_code.md, The kernel
// on other backends): the driver runs there under `bash -c`, started
// through the backend's own launcher (the ssh client on the session's
// ControlMaster, bubblewrap, `docker exec -i`), and everything — the module,
// cells, output, tool calls and their answers, images, interrupts — travels
// as frames (stream_frames.h) on that launcher's stdin and stdout for the
// kernel's life. No file is written on the target and nothing polls.
#pragma once

#include "backend/backend.h"
#include "core/result.h"
#include "proc/spawn.h"
#include "proc/unique_fd.h"
#include "tools/execute_code/kernel.h"
#include "tools/execute_code/stream_frames.h"
#include "tools/execute_code/tool_bridge.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <vector>

namespace hermes::execute_code {

struct StreamKernelSpec {
  std::string module_source;  // hermes_tools.py with RpcTransport::kStream
  std::string cwd;            // on the target; empty: where the launcher starts
  std::string timezone;       // passed as TZ; empty: the target's own
  // Variables unset for the kernel (shell identifiers; others are ignored).
  std::vector<std::string> unset_names;
  uint64_t memory_bytes = 0;  // RLIMIT_AS of the kernel and its children; 0: none
  // How long the driver has to say it is ready.
  std::chrono::milliseconds start_timeout{std::chrono::seconds(60)};
};

class StreamKernel final : public Kernel {
 public:
  // Starts the driver on `backend`'s target (already started) and waits
  // for its `ready`. Errors: no python3 there (the contract's message), a
  // transport failure (the backend's message), kIo otherwise, kCancelled
  // when `stop` came first.
  static Result<std::unique_ptr<Kernel>> start(std::shared_ptr<backend::Backend> backend,
                                               const StreamKernelSpec& spec, std::stop_token stop);
  // Kills the launcher (the driver sees EOF and ends its process group and
  // descendants) and, where the target outlives the launcher, ends the
  // driver's group there by its pid.
  ~StreamKernel() override;
  StreamKernel(const StreamKernel&) = delete;
  StreamKernel& operator=(const StreamKernel&) = delete;

  CellResult run_cell(const CellRequest& request, rpc::RpcHandler& handler,
                      std::stop_source& stop) override;
  bool alive() const override;
  // Kills the launcher's local tree.
  void kill() const override;

 private:
  class CellLoop;
  StreamKernel(std::shared_ptr<backend::Backend> backend, proc::ChildProcess launcher,
               proc::UniqueFd errors, std::string id);
  Result<Frame> await_ready(std::chrono::milliseconds limit, std::stop_token stop);
  Error start_failure(const std::string& why);
  // Sends one frame; false when the driver does not take it.
  bool send(std::string_view kind, std::string_view data);
  void end_on_target();
  // Keeps what the launcher wrote to its stderr (up to a cap); false at EOF.
  bool read_errors();

  std::shared_ptr<backend::Backend> backend_;
  proc::ChildProcess launcher_;
  // The launcher's stderr, read without blocking: where the target outlives
  // the launcher, the ssh ControlMaster holds the pipe for as long as the
  // remote side runs, so nothing may wait for its EOF.
  proc::UniqueFd errors_;
  std::string error_text_;
  std::string id_;          // HERMES_KERNEL_ID, which marks the driver on the target
  std::string remote_pid_;  // the driver's pid there, from `ready`
  FrameReader frames_;
  int cells_ = 0;  // cells sent; a `call` names the cell it comes from
  std::mutex send_mu_;
  BridgeSlot bridge_;  // the running cell's tool bridge
  BridgeSlot idle_;    // never attached: refuses a call from an earlier cell
  std::atomic<bool> gone_{false};
};

}  // namespace hermes::execute_code
