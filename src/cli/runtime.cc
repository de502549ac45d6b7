// SPDX-License-Identifier: MIT
#include "cli/runtime.h"

#include "core/log.h"
#include "tools/register_all.h"

#include <set>

namespace hermes::cli {
namespace {

std::unique_ptr<Config> load_config(const GlobalOptions& options) {
  auto config = Config::load(Config::default_home());
  if (!options.root.empty()) config->set_override("security.workspace_root", options.root);
  if (options.yolo) config->set_override("approvals.yolo", "true");
  return config;
}

std::set<std::string> pick_toolsets(const GlobalOptions& options, const Config& config) {
  std::vector<std::string> names = options.toolsets;
  if (names.empty()) names = config.get_string_list("toolsets");
  std::set<std::string> out;
  for (const auto& name : names) {
    if (name == "all") return {};
    if (registry::Registry::known_toolsets().count(name)) {
      out.insert(name);
    } else {
      log::warn("unknown toolset '" + name + "' ignored");
    }
  }
  return out;
}

}  // namespace

Runtime::Runtime(const GlobalOptions& options)
    : config_(load_config(options)),
      paths_(config_->get_string("security.workspace_root", "")),
      services_{*config_, paths_} {
  tools::register_all_tools(registry_);
  registry_.enable_toolsets(pick_toolsets(options, *config_));
}

}  // namespace hermes::cli
