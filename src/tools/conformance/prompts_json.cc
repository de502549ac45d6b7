// SPDX-License-Identifier: MIT
// The prompts the suite gets (prompts-*): plain, with arguments, with an
// embedded resource, with an image.
#include "tools/conformance/conformance.h"
#include "tools/conformance/fixture_json.h"

namespace hermes::conformance {
namespace {

Json user(Json content) { return {{"role", "user"}, {"content", std::move(content)}}; }

Json text(const std::string& text) { return {{"type", "text"}, {"text", text}}; }

std::string string_arg(const Json& args, const char* key) {
  auto it = args.find(key);
  return it != args.end() && it->is_string() ? it->get<std::string>() : "";
}

}  // namespace

void register_prompt_fixtures(registry::Registry& registry) {
  registry.add_prompt({.name = "test_simple_prompt",
                       .title = "Simple Test Prompt",
                       .description = "A simple prompt without arguments",
                       .toolset = "conformance",
                       .get = [](const Json&, registry::ClientChannel&) {
                         return Json::array({user(text("This is a simple prompt for testing."))});
                       }});
  registry.add_prompt(
      {.name = "test_prompt_with_arguments",
       .title = "Prompt With Arguments",
       .description = "A prompt with required arguments",
       .arguments = {{"arg1", "First test argument", true}, {"arg2", "Second test argument", true}},
       .toolset = "conformance",
       .get = [](const Json& args, registry::ClientChannel&) {
         return Json::array({user(text("Prompt with arguments: arg1='" + string_arg(args, "arg1") +
                                       "', arg2='" + string_arg(args, "arg2") + "'"))});
       }});
  registry.add_prompt({.name = "test_prompt_with_embedded_resource",
                       .title = "Prompt With Embedded Resource",
                       .description = "A prompt that includes an embedded resource",
                       .arguments = {{"resourceUri", "URI of the resource to embed", true}},
                       .toolset = "conformance",
                       .get = [](const Json& args, registry::ClientChannel&) {
                         Json resource = {{"uri", string_arg(args, "resourceUri")},
                                          {"mimeType", "text/plain"},
                                          {"text", "Embedded resource content for testing."}};
                         return Json::array(
                             {user({{"type", "resource"}, {"resource", std::move(resource)}}),
                              user(text("Please process the embedded resource above."))});
                       }});
  registry.add_prompt({.name = "test_prompt_with_image",
                       .title = "Prompt With Image",
                       .description = "A prompt that includes image content",
                       .toolset = "conformance",
                       .get = [](const Json&, registry::ClientChannel&) {
                         return Json::array({user({{"type", "image"},
                                                   {"data", std::string(kPngBase64)},
                                                   {"mimeType", "image/png"}}),
                                             user(text("Please analyze the image above."))});
                       }});
}

}  // namespace hermes::conformance
