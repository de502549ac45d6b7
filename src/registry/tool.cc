// SPDX-License-Identifier: MIT
// Running a tool's entry point.
#include "registry/tool.h"

namespace hermes::registry {

Json error_json(const std::string& message) {
  Json out = Json::object();
  out["error"] = message;
  return out;
}

ToolReply invoke_tool(const ToolSpec& spec, const Json& args, CallContext& ctx) {
  return spec.run(args, ctx);
}

}  // namespace hermes::registry
