// SPDX-License-Identifier: MIT
// Running a tool's entry point, and what a scheduler may know of its calls.
#include "registry/tool.h"

#include "backend/backend_config.h"

namespace hermes::registry {

Json error_json(const std::string& message) {
  Json out = Json::object();
  out["error"] = message;
  return out;
}

bool runs_briefly(const ToolSpec& spec, const Json& args, const Services& services) {
  return spec.brief && spec.brief(args) && backend::backend_name(services.config) == "local";
}

ToolReply invoke_tool(const ToolSpec& spec, const Json& args, CallContext& ctx) {
  return spec.run(args, ctx);
}

}  // namespace hermes::registry
