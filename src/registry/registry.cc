// SPDX-License-Identifier: MIT
#include "registry/registry.h"

#include <map>
#include <stdexcept>

namespace hermes::registry {

void Registry::add(ToolSpec spec) {
  for (const auto& tool : tools_) {
    if (tool.name == spec.name) throw std::logic_error("duplicate tool " + spec.name);
  }
  tools_.push_back(std::move(spec));
}

void Registry::enable_toolsets(std::set<std::string> toolsets) { toolsets_ = std::move(toolsets); }

const std::set<std::string>& Registry::known_toolsets() {
  static const std::set<std::string> kToolsets = {"file", "terminal", "code",
                                                  "task", "web",      "conformance"};
  return kToolsets;
}

bool Registry::is_opt_in(const std::string& toolset) { return toolset == "conformance"; }

std::string Registry::toolset_names() {
  std::string out = "all";
  for (const auto& name : known_toolsets()) out += ", " + name;
  return out;
}

Result<std::set<std::string>> Registry::select_toolsets(const std::vector<std::string>& names) {
  std::set<std::string> out;
  for (const auto& name : names) {
    if (name == "all") {
      for (const auto& known : known_toolsets()) {
        if (!is_opt_in(known)) out.insert(known);
      }
      continue;
    }
    if (!known_toolsets().count(name)) {
      return Error::InvalidArgument("unknown toolset '" + name + "' (valid: " + toolset_names() +
                                    ")");
    }
    out.insert(name);
  }
  return out;
}

bool Registry::is_enabled(const std::string& toolset) const {
  return toolsets_.empty() ? !is_opt_in(toolset) : toolsets_.count(toolset) > 0;
}

std::vector<const ToolSpec*> Registry::list(const Services& services) const {
  std::vector<const ToolSpec*> out;
  for (const auto& tool : tools_) {
    if (is_enabled(tool.toolset) && tool.is_available(services)) out.push_back(&tool);
  }
  return out;
}

namespace {

// Names the newest upstream gave tools that keep their classic name here;
// a call by either name reaches the tool (only the classic one is listed).
const std::string& classic_name(const std::string& name) {
  static const std::map<std::string, std::string> kRenamed = {{"process_manage", "process"}};
  auto it = kRenamed.find(name);
  return it == kRenamed.end() ? name : it->second;
}

}  // namespace

const ToolSpec* Registry::find(const std::string& name, const Services& services) const {
  const std::string& wanted = classic_name(name);
  for (const auto& tool : tools_) {
    if (tool.name == wanted) {
      return is_enabled(tool.toolset) && tool.is_available(services) ? &tool : nullptr;
    }
  }
  return nullptr;
}

Error Registry::why_missing(const std::string& name, const Services& services) const {
  const std::string& wanted = classic_name(name);
  for (const auto& tool : tools_) {
    if (tool.name != wanted) continue;
    if (!is_enabled(tool.toolset)) {
      std::string enabled;
      for (const auto& set : toolsets_) enabled += (enabled.empty() ? "" : ",") + set;
      if (enabled.empty()) enabled = "all";  // the default
      return Error::PermissionDenied("Tool '" + name + "' is not enabled (--toolsets " + enabled +
                                     "; it is in toolset '" + tool.toolset + "')");
    }
    if (!tool.is_available(services)) {
      return Error::Unavailable("Tool '" + name +
                                "' is not available on this host (a program or key it "
                                "needs is missing)");
    }
  }
  return Error::NotFound("Unknown tool: " + name);
}

}  // namespace hermes::registry
