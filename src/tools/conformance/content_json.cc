// SPDX-License-Identifier: MIT
// The fixtures that only return content, as the suite's scenarios
// (tools-call-*, json-schema-2020-12) and its reference server give them.
#include "core/base64.h"
#include "tools/conformance/conformance.h"
#include "tools/conformance/fixture_json.h"

namespace hermes::conformance {
namespace {

using Kind = registry::ContentBlock::Kind;

// A minimal WAV file, as the suite's reference server sends.
constexpr std::string_view kWavBase64 =
    "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

registry::ContentBlock media(Kind kind, std::string mime_type, std::string_view base64) {
  return {std::move(mime_type), base64_decode(base64).value_or(""), kind};
}

registry::ContentBlock text_resource(std::string uri, std::string mime_type, std::string text) {
  return {std::move(mime_type), std::move(text), Kind::kTextResource, std::move(uri)};
}

// SEP-1613 and SEP-2106: a 2020-12 schema whose $schema, $defs, $anchor,
// composition and conditional keywords tools/list must keep.
Json json_schema_2020_12() {
  return Json::parse(R"js({
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "$defs": {"address": {"$anchor": "addressDef", "type": "object",
                          "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
    "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"},
                   "contactMethod": {"type": "string", "enum": ["phone", "email"]},
                   "phone": {"type": "string"}, "email": {"type": "string"}},
    "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
    "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
    "then": {"required": ["phone"]},
    "else": {"required": ["email"]},
    "additionalProperties": false
  })js");
}

Result<FixtureOutput> returns(FixtureOutput output) { return output; }

}  // namespace

void register_content_fixtures(registry::Registry& registry) {
  const Json no_args = string_args_schema({});
  registry.add(fixture_tool("test_simple_text", "Tests simple text content response", no_args,
                            [](const FixtureParams&, registry::CallContext&) {
                              return returns({"This is a simple text response for testing."});
                            }));
  registry.add(
      fixture_tool("test_image_content", "Tests image content response", no_args,
                   [](const FixtureParams&, registry::CallContext&) {
                     return returns({"An image:", {media(Kind::kImage, "image/png", kPngBase64)}});
                   }));
  registry.add(fixture_tool(
      "test_audio_content", "Tests audio content response", no_args,
      [](const FixtureParams&, registry::CallContext&) {
        return returns({"An audio clip:", {media(Kind::kAudio, "audio/wav", kWavBase64)}});
      }));
  registry.add(fixture_tool("test_embedded_resource", "Tests embedded resource content response",
                            no_args, [](const FixtureParams&, registry::CallContext&) {
                              return returns(
                                  {"An embedded resource:",
                                   {text_resource("test://embedded-resource", "text/plain",
                                                  "This is an embedded resource content.")}});
                            }));
  registry.add(fixture_tool(
      "test_multiple_content_types",
      "Tests response with multiple content types (text, image, resource)", no_args,
      [](const FixtureParams&, registry::CallContext&) {
        return returns({"Multiple content types test:",
                        {media(Kind::kImage, "image/png", kPngBase64),
                         text_resource("test://mixed-content-resource", "application/json",
                                       R"({"test":"data","value":123})")}});
      }));
  registry.add(
      fixture_tool("test_error_handling", "Tests error response handling", no_args,
                   [](const FixtureParams&, registry::CallContext&) -> Result<FixtureOutput> {
                     return Error::Internal("This tool intentionally returns an error for testing");
                   }));
  // SEP-2243: an argument that travels in a header too (Mcp-Param-Region),
  // which the server checks against the body (http-custom-header-server-validation).
  Json region = string_args_schema({});
  region["properties"]["region"] = {
      {"type", "string"}, {"description", "A region name"}, {"x-mcp-header", "Region"}};
  registry.add(
      fixture_tool("test_custom_header", "Tests an argument mirrored in an Mcp-Param header",
                   std::move(region), [](const FixtureParams& params, registry::CallContext&) {
                     return returns({"Custom header tool called with: " + dump_json(params.args)});
                   }));
  registry.add(fixture_tool(
      "json_schema_2020_12_tool",
      "Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)",
      json_schema_2020_12(), [](const FixtureParams& params, registry::CallContext&) {
        return returns({"JSON Schema 2020-12 tool called with: " + dump_json(params.args)});
      }));
}

}  // namespace hermes::conformance
