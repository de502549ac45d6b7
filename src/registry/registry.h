// SPDX-License-Identifier: MIT
// The tool table: every tool the binary knows, filtered by the enabled
// toolsets and each tool's availability check. Built once at startup, then
// read-only (thread-safe for reads).
#pragma once

#include "core/result.h"
#include "registry/tool.h"

#include <set>
#include <string>
#include <vector>

namespace hermes::registry {

class Registry {
 public:
  // Adds a tool; a duplicate name is a programming error (CHECK).
  void add(ToolSpec spec);
  // Restricts the listed/callable tools to these toolsets (when empty: every
  // toolset but the opt-in ones).
  void enable_toolsets(std::set<std::string> toolsets);
  // The toolsets `names` selects: empty for none; `all` is every toolset but
  // the opt-in ones, which only their own name adds (`all,conformance`);
  // kInvalidArgument naming the word and the valid names for an unknown one,
  // so a typo never falls open to every tool.
  static Result<std::set<std::string>> select_toolsets(const std::vector<std::string>& names);

  // Enabled and available tools in registration order.
  std::vector<const ToolSpec*> list(const Services& services) const;
  // The enabled and available tool named `name`, or nullptr.
  const ToolSpec* find(const std::string& name, const Services& services) const;
  // Why `name` is not callable (find gave nullptr): unknown, outside the
  // enabled toolsets (kPermissionDenied, naming them), or unavailable here.
  Error why_missing(const std::string& name, const Services& services) const;
  // Every registered tool, ignoring toolsets and availability.
  const std::vector<ToolSpec>& all() const { return tools_; }

  static const std::set<std::string>& known_toolsets();
  // A toolset that neither the default nor `all` enables: `conformance`, the
  // official conformance suite's fixtures (docs/conformance.md).
  static bool is_opt_in(const std::string& toolset);
  // "all, code, file, …": every word --toolsets accepts.
  static std::string toolset_names();

 private:
  bool is_enabled(const ToolSpec& spec) const;
  std::vector<ToolSpec> tools_;
  std::set<std::string> toolsets_;
};

}  // namespace hermes::registry
