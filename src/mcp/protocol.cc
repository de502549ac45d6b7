// SPDX-License-Identifier: MIT
#include "mcp/protocol.h"

#include "core/base64.h"

namespace hermes::mcp {

const std::vector<std::string>& supported_versions() {
  static const std::vector<std::string> kVersions = {"2024-11-05", "2025-03-26", "2025-06-18",
                                                     "2025-11-25"};
  return kVersions;
}

std::string negotiate_version(const Json& requested) {
  if (requested.is_string()) {
    for (const auto& version : supported_versions()) {
      if (requested.get_ref<const std::string&>() == version) return version;
    }
  }
  return supported_versions().back();
}

Json make_result(const Json& id, Json result) {
  Json out;
  out["jsonrpc"] = "2.0";
  out["id"] = id;
  out["result"] = std::move(result);
  return out;
}

Json make_error(const Json& id, RpcError code, const std::string& message, Json data) {
  Json out;
  out["jsonrpc"] = "2.0";
  if (!id.is_null()) out["id"] = id;
  out["error"] = {{"code", static_cast<int>(code)}, {"message", message}};
  if (!data.is_null()) out["error"]["data"] = std::move(data);
  return out;
}

Json make_notification(const std::string& method, Json params) {
  Json out;
  out["jsonrpc"] = "2.0";
  out["method"] = method;
  out["params"] = std::move(params);
  return out;
}

Json initialize_result(const ServerIdentity& identity, const std::string& version,
                       const Json& offered) {
  Json out;
  out["protocolVersion"] = version;
  out["capabilities"] = {{"tools", {{"listChanged", false}}}, {"logging", Json::object()}};
  out["capabilities"].update(offered);
  out["serverInfo"] = {{"name", identity.name}, {"version", identity.version}};
  if (!identity.instructions.empty()) out["instructions"] = identity.instructions;
  return out;
}

Json discover_result(const ServerIdentity& identity, bool tasks, const Json& offered) {
  Json capabilities = {{"tools", Json::object()}};
  capabilities.update(offered);
  if (tasks) capabilities["extensions"] = {{"io.modelcontextprotocol/tasks", Json::object()}};
  Json out;
  out["supportedVersions"] = Json::array({std::string(kModernVersion)});
  out["capabilities"] = std::move(capabilities);
  if (!identity.instructions.empty()) out["instructions"] = identity.instructions;
  out["ttlMs"] = kListTtlMs;
  out["cacheScope"] = "private";
  return modern_result(identity, std::move(out));
}

Json modern_result(const ServerIdentity& identity, Json result, std::string_view result_type) {
  if (result.is_object()) result.get_ref<Json::object_t&>().reserve(result.size() + 2);
  if (!result.contains("resultType")) result["resultType"] = std::string(result_type);
  result["_meta"]["io.modelcontextprotocol/serverInfo"] = {{"name", identity.name},
                                                           {"version", identity.version}};
  return result;
}

Json tool_to_json(const registry::ToolSpec& spec, const std::string& description) {
  Json out;
  out["name"] = spec.name;
  out["description"] = description;
  out["inputSchema"] = spec.input_schema;
  if (!spec.output_schema.is_null()) out["outputSchema"] = spec.output_schema;
  // Hints equal to the spec's defaults (readOnly false, destructive true,
  // idempotent false) are left out: tools/list bytes are paid in every prompt.
  const registry::ToolAnnotations& a = spec.annotations;
  Json hints = Json::object();
  if (a.read_only) hints["readOnlyHint"] = true;
  if (!a.read_only && !a.destructive) hints["destructiveHint"] = false;
  if (a.idempotent) hints["idempotentHint"] = true;
  hints["openWorldHint"] = a.open_world;
  out["annotations"] = std::move(hints);
  return out;
}

Json content_block_json(const registry::ContentBlock& block) {
  using Kind = registry::ContentBlock::Kind;
  Json out = object_with_room(3);
  if (block.kind == Kind::kImage || block.kind == Kind::kAudio) {
    out["type"] = block.kind == Kind::kImage ? "image" : "audio";
    out["data"] = base64_encode(block.data);
    out["mimeType"] = block.mime_type;
    return out;
  }
  Json resource = {{"uri", block.uri}, {"mimeType", block.mime_type}};
  if (block.kind == Kind::kTextResource) {
    resource["text"] = block.data;
  } else {
    resource["blob"] = base64_encode(block.data);
  }
  out["type"] = "resource";
  out["resource"] = std::move(resource);
  return out;
}

Json call_result(std::string text, bool is_error,
                 const std::vector<registry::ContentBlock>& content, Json structured) {
  Json block = object_with_room(2);
  block["type"] = "text";
  block["text"] = std::move(text);
  Json out = object_with_room(3);
  out["content"] = Json::array({std::move(block)});
  for (const registry::ContentBlock& item : content) {
    out["content"].push_back(content_block_json(item));
  }
  if (!structured.is_null()) out["structuredContent"] = std::move(structured);
  out["isError"] = is_error;
  return out;
}

bool is_valid_id(const Json& id) {
  return id.is_string() || id.is_number_integer() || id.is_number_unsigned();
}

const Json& param(const Json& params, const char* key) {
  static const Json kNull;
  if (!params.is_object()) return kNull;
  auto it = params.find(key);
  return it == params.end() ? kNull : *it;
}

}  // namespace hermes::mcp
