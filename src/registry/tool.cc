// SPDX-License-Identifier: MIT
// Running a tool's entry point, and what a scheduler may know of its calls.
#include "registry/tool.h"

#include "backend/backend_config.h"
#include "core/config.h"
#include "core/link_walk.h"
#include "core/paths.h"
#include "fs/mount_table.h"

namespace hermes::registry {

Json error_json(const std::string& message) {
  Json out = Json::object();
  out["error"] = message;
  return out;
}

namespace {

// Whether the real path of `home` (links followed, as the file tools follow
// them) lies on a mount whose server may not answer.
bool home_may_wait(const std::string& home) {
  if (home.empty() || home[0] != '/') return false;
  return !resolve_links(PathResolver::normalize(home), fs::may_wait_on_server_at).has_value();
}

}  // namespace

bool runs_briefly(const ToolSpec& spec, const Json& args, const Services& services,
                  BriefFindings& found) {
  if (!spec.brief || backend::backend_name(services.config) != "local") return false;
  // The file tools also look under the Hermes home and the user's home
  // (credential stores, ~/.ssh/config): those must not wait on a server
  // either.
  if (fs::any_mount_may_wait() &&
      (home_may_wait(services.config.home()) || home_may_wait(services.files.home()))) {
    return false;
  }
  return spec.brief(args, found);
}

std::optional<std::string> absolute_real_path(const Json& args, const char* key,
                                              KnownRealPath& found) {
  auto it = args.find(key);
  if (it == args.end() || !it->is_string()) return std::nullopt;
  const std::string& given = it->get_ref<const std::string&>();
  if (given.empty() || given[0] != '/') return std::nullopt;
  std::string absolute = PathResolver::normalize(given);
  auto real = resolve_links(absolute, fs::may_wait_on_server_at);
  // A loop, or a mount whose server may not answer: let the tool meet it
  // where it may wait.
  if (!real) return std::nullopt;
  found = KnownRealPath{std::move(absolute), *real};
  return std::move(real).value();
}

ToolReply invoke_tool(const ToolSpec& spec, const Json& args, CallContext& ctx) {
  return spec.run(args, ctx);
}

}  // namespace hermes::registry
