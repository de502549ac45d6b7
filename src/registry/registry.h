// SPDX-License-Identifier: MIT
// The tool table: every tool the binary knows, filtered by the enabled
// toolsets and each tool's availability check. Built once at startup, then
// read-only (thread-safe for reads).
#pragma once

#include "registry/tool.h"

#include <set>
#include <string>
#include <vector>

namespace hermes::registry {

class Registry {
 public:
  // Adds a tool; a duplicate name is a programming error (CHECK).
  void add(ToolSpec spec);
  // Restricts the listed/callable tools to these toolsets (all when empty).
  void enable_toolsets(std::set<std::string> toolsets);

  // Enabled and available tools in registration order.
  std::vector<const ToolSpec*> list(const Services& services) const;
  // The enabled and available tool named `name`, or nullptr.
  const ToolSpec* find(const std::string& name, const Services& services) const;
  // Every registered tool, ignoring toolsets and availability.
  const std::vector<ToolSpec>& all() const { return tools_; }

  static const std::set<std::string>& known_toolsets();

 private:
  bool is_enabled(const ToolSpec& spec) const;
  std::vector<ToolSpec> tools_;
  std::set<std::string> toolsets_;
};

}  // namespace hermes::registry
