// SPDX-License-Identifier: MIT
#include "cli/runtime.h"

#include "tools/register_all.h"

namespace hermes::cli {
namespace {

std::unique_ptr<Config> load_config(const GlobalOptions& options) {
  auto config = Config::load(Config::default_home());
  if (!options.root.empty()) config->set_override("security.workspace_root", options.root);
  if (options.yolo) config->set_override("approvals.yolo", "true");
  return config;
}

}  // namespace

Result<std::unique_ptr<Runtime>> Runtime::create(const GlobalOptions& options) {
  auto config = load_config(options);
  bool from_flag = !options.toolsets.empty();
  auto toolsets = registry::Registry::select_toolsets(
      from_flag ? options.toolsets : config->get_string_list("toolsets"));
  if (!toolsets) {
    return Error::InvalidArgument((from_flag ? "--toolsets: " : "config.yaml `toolsets`: ") +
                                  toolsets.error().message);
  }
  return std::unique_ptr<Runtime>(new Runtime(std::move(config), *toolsets));
}

Runtime::Runtime(std::unique_ptr<Config> config, const std::set<std::string>& toolsets)
    : config_(std::move(config)),
      paths_(config_->get_string("security.workspace_root", "")),
      checkpoints_(config_->home() + "/checkpoints"),
      services_{*config_, paths_} {
  services_.checkpoints = &checkpoints_;
  tools::register_all_tools(registry_);
  registry_.enable_toolsets(toolsets);
}

}  // namespace hermes::cli
