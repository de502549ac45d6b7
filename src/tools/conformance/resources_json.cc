// SPDX-License-Identifier: MIT
// The resources the suite reads (resources-*, sep-2164-resource-not-found):
// a text one, a binary one, a watched one, and a URI template.
#include "tools/conformance/conformance.h"
#include "tools/conformance/fixture_json.h"

namespace hermes::conformance {
namespace {

Json text_contents(const std::string& uri, const std::string& mime_type, const std::string& text) {
  return Json::array({{{"uri", uri}, {"mimeType", mime_type}, {"text", text}}});
}

}  // namespace

void register_resource_fixtures(registry::Registry& registry) {
  registry.add_resource({.uri = "test://static-text",
                         .name = "static-text",
                         .title = "Static Text Resource",
                         .description = "A static text resource for testing",
                         .mime_type = "text/plain",
                         .toolset = "conformance",
                         .read = [](const std::string& uri) {
                           return text_contents(uri, "text/plain",
                                                "This is the content of the static text resource.");
                         }});
  registry.add_resource(
      {.uri = "test://static-binary",
       .name = "static-binary",
       .title = "Static Binary Resource",
       .description = "A static binary resource (image) for testing",
       .mime_type = "image/png",
       .toolset = "conformance",
       .read = [](const std::string& uri) {
         return Json::array(
             {{{"uri", uri}, {"mimeType", "image/png"}, {"blob", std::string(kPngBase64)}}});
       }});
  registry.add_resource({.uri = "test://watched-resource",
                         .name = "watched-resource",
                         .title = "Watched Resource",
                         .description = "A resource clients may subscribe to",
                         .mime_type = "text/plain",
                         .toolset = "conformance",
                         .read = [](const std::string& uri) {
                           return text_contents(uri, "text/plain", "Watched resource content");
                         }});
  registry.add_resource_template(
      {.uri_template = "test://template/{id}/data",
       .name = "template",
       .title = "Resource Template",
       .description = "A resource template with parameter substitution",
       .mime_type = "application/json",
       .toolset = "conformance",
       .read = [](const std::string& uri, const Json& vars) {
         const std::string id = vars.value("id", std::string());
         Json data = {{"id", id}, {"templateTest", true}, {"data", "Data for ID: " + id}};
         return text_contents(uri, "application/json", dump_json(data));
       }});
}

}  // namespace hermes::conformance
