// SPDX-License-Identifier: MIT
// The services a command runs with, built once from the global options:
// configuration, path resolver, and the tool table with its toolsets.
#pragma once

#include "core/config.h"
#include "core/paths.h"
#include "core/result.h"
#include "registry/registry.h"
#include "registry/tool.h"

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "checkpoint/checkpoints.h"

namespace hermes::cli {

struct GlobalOptions {
  std::vector<std::string> toolsets;  // empty: config `toolsets`, else all
  std::string root;                   // --root: workspace containment
  bool yolo = false;                  // --yolo: approvals off
};

// Owns everything a tool call needs. Not copyable.
class Runtime {
 public:
  // kInvalidArgument for an unknown toolset (--toolsets or config `toolsets`):
  // the command then ends with a usage error instead of enabling every tool.
  static Result<std::unique_ptr<Runtime>> create(const GlobalOptions& options);
  const registry::Registry& registry() const { return registry_; }
  const registry::Services& services() const { return services_; }

 private:
  Runtime(std::unique_ptr<Config> config, const std::set<std::string>& toolsets);
  std::unique_ptr<Config> config_;
  PathResolver paths_;
  checkpoint::Checkpoints checkpoints_;  // under the Hermes home (docs/checkpoints.md)
  registry::Registry registry_;
  registry::Services services_;
};

}  // namespace hermes::cli
