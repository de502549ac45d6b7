// SPDX-License-Identifier: MIT
#include "mcp/catalog_json.h"

namespace hermes::mcp {
namespace {

// name, title, description, mimeType: the fields every listed entry shares.
void describe(Json& out, const std::string& name, const std::string& title,
              const std::string& description, const std::string& mime_type) {
  out["name"] = name;
  if (!title.empty()) out["title"] = title;
  if (!description.empty()) out["description"] = description;
  if (!mime_type.empty()) out["mimeType"] = mime_type;
}

}  // namespace

bool offers_resources(const registry::Registry& registry) {
  return !registry.resources().empty() || !registry.resource_templates().empty();
}

bool offers_prompts(const registry::Registry& registry) { return !registry.prompts().empty(); }

Json catalog_capabilities(const registry::Registry& registry, bool modern) {
  Json out = Json::object();
  if (offers_resources(registry)) {
    out["resources"] = {{"listChanged", false}};
    if (!modern) out["resources"]["subscribe"] = true;
  }
  if (offers_prompts(registry)) out["prompts"] = {{"listChanged", false}};
  if (offers_resources(registry) || offers_prompts(registry)) out["completions"] = Json::object();
  return out;
}

Json resources_list(const registry::Registry& registry) {
  Json list = Json::array();
  for (const registry::ResourceSpec* spec : registry.resources()) {
    Json entry = {{"uri", spec->uri}};
    describe(entry, spec->name, spec->title, spec->description, spec->mime_type);
    list.push_back(std::move(entry));
  }
  return {{"resources", std::move(list)}};
}

Json resource_templates_list(const registry::Registry& registry) {
  Json list = Json::array();
  for (const registry::ResourceTemplateSpec* spec : registry.resource_templates()) {
    Json entry = {{"uriTemplate", spec->uri_template}};
    describe(entry, spec->name, spec->title, spec->description, spec->mime_type);
    list.push_back(std::move(entry));
  }
  return {{"resourceTemplates", std::move(list)}};
}

Json prompts_list(const registry::Registry& registry) {
  Json list = Json::array();
  for (const registry::PromptSpec* spec : registry.prompts()) {
    Json entry = Json::object();
    describe(entry, spec->name, spec->title, spec->description, "");
    Json arguments = Json::array();
    for (const registry::PromptArgument& argument : spec->arguments) {
      arguments.push_back({{"name", argument.name},
                           {"description", argument.description},
                           {"required", argument.required}});
    }
    entry["arguments"] = std::move(arguments);
    list.push_back(std::move(entry));
  }
  return {{"prompts", std::move(list)}};
}

std::optional<Json> read_resource(const registry::Registry& registry, const std::string& uri) {
  for (const registry::ResourceSpec* spec : registry.resources()) {
    if (spec->uri == uri) return Json{{"contents", spec->read(uri)}};
  }
  for (const registry::ResourceTemplateSpec* spec : registry.resource_templates()) {
    if (auto vars = registry::match_uri_template(spec->uri_template, uri)) {
      return Json{{"contents", spec->read(uri, *vars)}};
    }
  }
  return std::nullopt;
}

std::optional<Json> get_prompt(const registry::Registry& registry, const std::string& name,
                               const Json& arguments, registry::ClientChannel& client) {
  for (const registry::PromptSpec* spec : registry.prompts()) {
    if (spec->name != name) continue;
    Json out = Json::object();
    if (!spec->description.empty()) out["description"] = spec->description;
    out["messages"] = spec->get(arguments.is_object() ? arguments : Json::object(), client);
    return out;
  }
  return std::nullopt;
}

Json completion_result() {
  return {{"completion", {{"values", Json::array()}, {"total", 0}, {"hasMore", false}}}};
}

}  // namespace hermes::mcp
