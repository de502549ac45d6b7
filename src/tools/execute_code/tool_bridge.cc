// SPDX-License-Identifier: MIT
#include "tools/execute_code/tool_bridge.h"

#include "registry/dispatcher.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace hermes::execute_code {
namespace {

constexpr std::array<std::string_view, 7> kSandboxTools = {
    "web_search", "web_extract", "read_file", "write_file", "search_files", "patch", "terminal"};

bool is_sandbox_tool(const std::string& name) {
  return std::find(kSandboxTools.begin(), kSandboxTools.end(), name) != kSandboxTools.end();
}

// What a script sent, as the tool receives it: a None argument means "use
// the default", and terminal runs foreground only.
Json clean_args(const std::string& tool, const Json& args) {
  Json out = Json::object();
  for (const auto& [name, value] : args.items()) {
    if (value.is_null()) continue;
    if (tool == "terminal" && terminal_stripped_args().count(name)) continue;
    out[name] = value;
  }
  return out;
}

}  // namespace

const std::set<std::string>& terminal_stripped_args() {
  static const std::set<std::string> kStripped = {
      "background", "pty",       "notify_on_complete", "watch_patterns",
      "notify",     "heartbeat", "persist_on_release"};
  return kStripped;
}

std::vector<const registry::ToolSpec*> sandbox_tools(const registry::Registry& registry,
                                                     const registry::Services& services) {
  std::vector<const registry::ToolSpec*> out;
  for (const registry::ToolSpec* spec : registry.list(services)) {
    if (is_sandbox_tool(spec->name)) out.push_back(spec);
  }
  if (out.empty()) {
    for (const registry::ToolSpec& spec : registry.all()) {
      if (is_sandbox_tool(spec.name) && spec.is_available(services)) out.push_back(&spec);
    }
  }
  std::sort(out.begin(), out.end(), [](const registry::ToolSpec* a, const registry::ToolSpec* b) {
    return a->name < b->name;
  });
  return out;
}

std::vector<StubSignature> stub_signatures(const std::vector<const registry::ToolSpec*>& tools) {
  std::vector<StubSignature> out;
  for (const registry::ToolSpec* spec : tools) {
    const std::set<std::string> none;
    out.push_back(
        signature_from_schema(spec->name, spec->input_schema,
                              spec->name == "terminal" ? terminal_stripped_args() : none));
  }
  return out;
}

ToolBridge::ToolBridge(std::vector<const registry::ToolSpec*> allowed, int max_calls,
                       registry::CallContext& parent, std::stop_token stop)
    : allowed_(std::move(allowed)), max_calls_(max_calls), parent_(parent), stop_(stop) {}

const registry::ToolSpec* ToolBridge::find(const std::string& tool) const {
  for (const registry::ToolSpec* spec : allowed_) {
    if (spec->name == tool) return spec;
  }
  return nullptr;
}

std::string ToolBridge::available_list() const {
  std::string out;
  for (const registry::ToolSpec* spec : allowed_) out += (out.empty() ? "" : ", ") + spec->name;
  return out;
}

Json ToolBridge::handle(const std::string& tool, const Json& args) {
  const registry::ToolSpec* spec = find(tool);
  if (!spec) {
    return registry::error_json(
        "Tool '" + tool + "' is not available in execute_code. Available: " + available_list());
  }
  if (calls_.load() >= max_calls_) {
    return registry::error_json("Tool call limit reached (" + std::to_string(max_calls_) +
                                "). No more tool calls allowed in this execution.");
  }
  ++calls_;
  registry::CallContext child{
      .session = parent_.session,
      .services = parent_.services,
      .client = parent_.client,
      .dispatcher = parent_.dispatcher,
      .stop = stop_,
      .progress_token = nullptr,
  };
  return parent_.dispatcher.call(*spec, clean_args(tool, args), child).value;
}

Json BridgeSlot::handle(const std::string& tool, const Json& args) {
  std::lock_guard lock(mu_);
  if (!bridge_) {
    return registry::error_json("Tool '" + tool +
                                "' was called between execute_code calls; tools answer only while "
                                "a call runs.");
  }
  return bridge_->handle(tool, args);
}

void BridgeSlot::attach(rpc::RpcHandler* bridge) {
  std::lock_guard lock(mu_);
  bridge_ = bridge;
}

}  // namespace hermes::execute_code
