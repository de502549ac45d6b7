// SPDX-License-Identifier: MIT
// The services a command runs with, built once from the global options:
// configuration, path resolver, and the tool table with its toolsets.
#pragma once

#include "core/config.h"
#include "core/paths.h"
#include "registry/registry.h"
#include "registry/tool.h"

#include <memory>
#include <string>
#include <vector>

namespace hermes::cli {

struct GlobalOptions {
  std::vector<std::string> toolsets;  // empty: config `toolsets`, else all
  std::string root;                   // --root: workspace containment
  bool yolo = false;                  // --yolo: approvals off
};

// Owns everything a tool call needs. Not copyable.
class Runtime {
 public:
  explicit Runtime(const GlobalOptions& options);
  const registry::Registry& registry() const { return registry_; }
  const registry::Services& services() const { return services_; }

 private:
  std::unique_ptr<Config> config_;
  PathResolver paths_;
  registry::Registry registry_;
  registry::Services services_;
};

}  // namespace hermes::cli
