// SPDX-License-Identifier: MIT
// Runs one tool call: finds the tool, does the session bookkeeping (loop
// counter resets), calls the handler and turns any escaped exception into the
// contract's error JSON. Thread-safe: calls may run concurrently.
#pragma once

#include "json/json.h"
#include "registry/registry.h"

#include <optional>
#include <string>

namespace hermes::registry {

struct ToolCallResult {
  Json value;                         // the tool's JSON object
  std::string text;                   // `value` serialised: the text the client sees
  bool is_error = false;              // the tool's typed result decides
  std::optional<ErrorCode> code;      // the failure's kind
  std::vector<ContentBlock> content;  // sent after the text
  std::optional<std::string> crash;   // what the tool threw: an internal failure, not its error
};

class Dispatcher {
 public:
  Dispatcher(const Registry& registry, const Services& services)
      : registry_(registry), services_(services) {}

  const Registry& registry() const { return registry_; }
  const Services& services() const { return services_; }

  // nullptr when `name` is not an enabled, available tool.
  const ToolSpec* find(const std::string& name) const { return registry_.find(name, services_); }
  // Calls `spec` with `args` in `ctx` (whose session and channel it uses).
  ToolCallResult call(const ToolSpec& spec, const Json& args, CallContext& ctx);

 private:
  const Registry& registry_;
  const Services& services_;
};

}  // namespace hermes::registry
