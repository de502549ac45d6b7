// SPDX-License-Identifier: MIT
// Answers a script's RPC requests by dispatching them through the parent
// call's dispatcher and session: the allowed-tool check, the call budget
// and terminal's foreground-only rule live here (docs/tools/execute_code.md).
#pragma once

#include "registry/registry.h"
#include "registry/tool.h"
#include "rpc/rpc_handler.h"
#include "tools/execute_code/stub_module.h"

#include <atomic>
#include <mutex>
#include <set>
#include <stop_token>
#include <string>
#include <vector>

namespace hermes::execute_code {

// Arguments terminal() loses inside scripts: scripts run foreground only.
const std::set<std::string>& terminal_stripped_args();

// The tools scripts may call, sorted by name: the sandbox tools (web_search,
// web_extract, read_file, write_file, search_files, patch, terminal) that
// the registry lists for `services`; when none of them is enabled, every
// registered and available one of the seven (the upstream rule).
std::vector<const registry::ToolSpec*> sandbox_tools(const registry::Registry& registry,
                                                     const registry::Services& services);

// The stubs of `tools` in the generated module, from their input schemas
// (terminal's without the arguments scripts lose).
std::vector<StubSignature> stub_signatures(const std::vector<const registry::ToolSpec*>& tools);

// Thread-safety: handle() runs on the RPC thread; calls_made() may be read
// from any thread.
class ToolBridge : public rpc::RpcHandler {
 public:
  // `parent` must outlive the bridge; dispatched calls share its session,
  // services, client and dispatcher, with `stop` as their stop token.
  ToolBridge(std::vector<const registry::ToolSpec*> allowed, int max_calls,
             registry::CallContext& parent, std::stop_token stop);

  // The tool's result JSON, or the contract's error for a tool that is not
  // allowed (free) or a call over the budget (free, and the script lives on).
  Json handle(const std::string& tool, const Json& args) override;

  int calls_made() const { return calls_.load(); }

 private:
  const registry::ToolSpec* find(const std::string& tool) const;
  std::string available_list() const;

  std::vector<const registry::ToolSpec*> allowed_;
  int max_calls_;
  registry::CallContext& parent_;
  std::stop_token stop_;
  std::atomic<int> calls_{0};
};

// A kernel's RPC handler, which outlives its cells: each cell attaches its
// own bridge (its budget, its call's session and stop token) while it runs;
// a call with none attached (a thread the cell left running) is refused.
// Thread-safe.
class BridgeSlot : public rpc::RpcHandler {
 public:
  Json handle(const std::string& tool, const Json& args) override;
  // Attaches `bridge`; nullptr detaches, after any call in flight returns.
  void attach(rpc::RpcHandler* bridge);

 private:
  std::mutex mu_;
  rpc::RpcHandler* bridge_ = nullptr;  // mu_, held while a call runs
};

}  // namespace hermes::execute_code
