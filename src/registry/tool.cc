// SPDX-License-Identifier: MIT
// Running a tool's entry point, typed or not yet typed.
#include "registry/tool.h"

#include "registry/dispatcher.h"

namespace hermes {

Json error_json(const std::string& message) {
  Json out = Json::object();
  out["error"] = message;
  return out;
}

ToolReply invoke_tool(const ToolSpec& spec, const Json& args, CallContext& ctx) {
  if (spec.run) return spec.run(args, ctx);
  Json value = spec.handler(args, ctx);
  bool is_error = is_error_result(value);
  return ToolReply{std::move(value), is_error, std::nullopt};
}

}  // namespace hermes
