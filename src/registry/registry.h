// SPDX-License-Identifier: MIT
// The tool table: every tool the binary knows, filtered by the enabled
// toolsets and each tool's availability check. Built once at startup, then
// read-only (thread-safe for reads).
#pragma once

#include "core/result.h"
#include "registry/catalog.h"
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
  // Resources, resource templates and prompts, listed and served when their
  // toolset is enabled (registration order).
  void add_resource(ResourceSpec spec) { resources_.push_back(std::move(spec)); }
  void add_resource_template(ResourceTemplateSpec spec) { templates_.push_back(std::move(spec)); }
  void add_prompt(PromptSpec spec) { prompts_.push_back(std::move(spec)); }
  std::vector<const ResourceSpec*> resources() const { return enabled(resources_); }
  std::vector<const ResourceTemplateSpec*> resource_templates() const {
    return enabled(templates_);
  }
  std::vector<const PromptSpec*> prompts() const { return enabled(prompts_); }

  // Every registered tool, ignoring toolsets and availability.
  const std::vector<ToolSpec>& all() const { return tools_; }

  static const std::set<std::string>& known_toolsets();
  // A toolset that neither the default nor `all` enables: `conformance`, the
  // official conformance suite's fixtures (docs/conformance.md).
  static bool is_opt_in(const std::string& toolset);
  // "all, code, file, …": every word --toolsets accepts.
  static std::string toolset_names();

 private:
  bool is_enabled(const std::string& toolset) const;
  template <class Spec>
  std::vector<const Spec*> enabled(const std::vector<Spec>& specs) const {
    std::vector<const Spec*> out;
    for (const Spec& spec : specs) {
      if (is_enabled(spec.toolset)) out.push_back(&spec);
    }
    return out;
  }
  std::vector<ToolSpec> tools_;
  std::vector<ResourceSpec> resources_;
  std::vector<ResourceTemplateSpec> templates_;
  std::vector<PromptSpec> prompts_;
  std::set<std::string> toolsets_;
};

}  // namespace hermes::registry
