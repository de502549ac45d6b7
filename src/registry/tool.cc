// SPDX-License-Identifier: MIT
// Running a tool's entry point, and what a scheduler may know of its calls.
#include "registry/tool.h"

#include "backend/backend_config.h"
#include "core/link_walk.h"
#include "core/paths.h"

namespace hermes::registry {

Json error_json(const std::string& message) {
  Json out = Json::object();
  out["error"] = message;
  return out;
}

bool runs_briefly(const ToolSpec& spec, const Json& args, const Services& services,
                  BriefFindings& found) {
  return spec.brief && backend::backend_name(services.config) == "local" && spec.brief(args, found);
}

std::optional<std::string> absolute_real_path(const Json& args, const char* key,
                                              KnownRealPath& found) {
  auto it = args.find(key);
  if (it == args.end() || !it->is_string()) return std::nullopt;
  const std::string& given = it->get_ref<const std::string&>();
  if (given.empty() || given[0] != '/') return std::nullopt;
  std::string absolute = PathResolver::normalize(given);
  auto real = resolve_links(absolute);
  if (!real) return std::nullopt;  // a loop: let the tool report it, off the loop
  found = KnownRealPath{std::move(absolute), *real};
  return std::move(real).value();
}

ToolReply invoke_tool(const ToolSpec& spec, const Json& args, CallContext& ctx) {
  return spec.run(args, ctx);
}

}  // namespace hermes::registry
