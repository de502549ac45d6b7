// SPDX-License-Identifier: MIT
// The MCP methods of what a server offers besides tools (resources, resource
// templates, prompts, completions), over the registry's enabled entries:
// their results as both eras share them, and the capabilities they declare.
#pragma once

#include "json/json.h"
#include "registry/registry.h"

#include <optional>
#include <string>

namespace hermes::mcp {

// `resources`, `prompts` and `completions` for whichever the registry has;
// resource subscriptions only on the legacy wire (the modern one removed
// resources/subscribe).
Json catalog_capabilities(const registry::Registry& registry, bool modern);
// True when the server offers resources (resources/subscribe is answered).
bool offers_resources(const registry::Registry& registry);
bool offers_prompts(const registry::Registry& registry);

Json resources_list(const registry::Registry& registry);
Json resource_templates_list(const registry::Registry& registry);
Json prompts_list(const registry::Registry& registry);
// resources/read: the result, or nullopt when no resource or template has `uri`.
std::optional<Json> read_resource(const registry::Registry& registry, const std::string& uri);
// prompts/get: the result, or nullopt when no prompt is named `name`. The
// prompt's questions go to `client`.
std::optional<Json> get_prompt(const registry::Registry& registry, const std::string& name,
                               const Json& arguments, registry::ClientChannel& client);
// completion/complete: no entry offers completions yet, so no values.
Json completion_result();

}  // namespace hermes::mcp
