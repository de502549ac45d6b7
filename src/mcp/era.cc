// SPDX-License-Identifier: MIT
#include "mcp/era.h"

#include "core/base64.h"
#include "core/strings.h"
#include "mcp/protocol.h"

namespace hermes::mcp {
namespace {

constexpr const char* kClaimKey = "io.modelcontextprotocol/protocolVersion";
constexpr const char* kCapabilitiesKey = "io.modelcontextprotocol/clientCapabilities";

Refusal refuse(RpcError code, std::string message, Json data = Json()) {
  return Refusal{code, std::move(message), std::move(data), 400};
}

// The parameter Mcp-Name must repeat, for the methods that route by name.
std::optional<std::string> routed_name(const std::string& method, const Json& params) {
  const char* key = nullptr;
  if (method == "tools/call" || method == "prompts/get") key = "name";
  if (method == "resources/read") key = "uri";
  if (method == "tasks/get" || method == "tasks/update" || method == "tasks/cancel") key = "taskId";
  if (key == nullptr) return std::nullopt;
  auto it = params.find(key);
  return it != params.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::optional<Refusal> check_envelope(const Json& params, Envelope& out) {
  const Json& meta = params["_meta"];
  const Json& claim = meta[kClaimKey];
  if (!claim.is_string()) {
    return refuse(RpcError::kInvalidParams,
                  "Invalid params: the protocol version claim must be a string");
  }
  auto caps = meta.find(kCapabilitiesKey);
  if (caps == meta.end() || !caps->is_object()) {
    return refuse(RpcError::kInvalidParams,
                  std::string("Invalid params: _meta needs an object '") + kCapabilitiesKey + "'");
  }
  out.version = claim.get<std::string>();
  out.client_capabilities = *caps;
  if (auto token = meta.find("progressToken"); token != meta.end()) out.progress_token = *token;
  return std::nullopt;
}

std::optional<Refusal> check_headers(const std::string& method, const Envelope& envelope,
                                     const WireHeaders& headers) {
  if (headers.protocol_version && *headers.protocol_version != envelope.version) {
    return refuse(RpcError::kHeaderMismatch,
                  "MCP-Protocol-Version header does not match the request's protocol version");
  }
  if (headers.method && *headers.method != method) {
    return refuse(RpcError::kHeaderMismatch, "Mcp-Method header does not match the method");
  }
  return std::nullopt;
}

std::optional<Refusal> check_routing(const std::string& method, const Json& params,
                                     const WireHeaders& headers) {
  if (!headers.protocol_version || !headers.method) {
    return refuse(RpcError::kHeaderMismatch,
                  "Missing required header: MCP-Protocol-Version and Mcp-Method");
  }
  auto expected = routed_name(method, params);
  if (expected && headers.name != expected) {
    return refuse(RpcError::kHeaderMismatch, headers.name
                                                 ? "Mcp-Name header does not match the request"
                                                 : "Missing required header: Mcp-Name");
  }
  return std::nullopt;
}

}  // namespace

bool Envelope::declares_tasks() const {
  auto ext = client_capabilities.find("extensions");
  return ext != client_capabilities.end() && ext->is_object() &&
         ext->contains(std::string(kTasksExtension));
}

bool Envelope::declares_elicitation() const { return client_capabilities.contains("elicitation"); }

bool has_claim(const Json& params) {
  if (!params.is_object()) return false;
  auto meta = params.find("_meta");
  return meta != params.end() && meta->is_object() && meta->contains(kClaimKey);
}

bool names_modern_version(std::string_view version) { return version >= kModernVersion; }

std::optional<std::string> decode_header_value(std::string_view value) {
  constexpr std::string_view kOpen = "=?base64?", kClose = "?=";
  if (!value.starts_with(kOpen) || value.size() < kOpen.size() + kClose.size() ||
      !value.ends_with(kClose)) {
    return std::string(value);
  }
  return base64_decode(value.substr(kOpen.size(), value.size() - kOpen.size() - kClose.size()));
}

std::optional<Refusal> check_param_headers(
    const Json& input_schema, const Json& args,
    const std::function<std::optional<std::string_view>(const std::string&)>& header) {
  const Json& properties = param(input_schema, "properties");
  if (!properties.is_object()) return std::nullopt;
  for (const auto& [name, schema] : properties.items()) {
    const Json& suffix = param(schema, "x-mcp-header");
    if (!suffix.is_string()) continue;
    const std::string header_name = "Mcp-Param-" + suffix.get<std::string>();
    auto raw = header(to_lower(header_name));
    const Json& value = param(args, name.c_str());
    if (!raw) {
      if (value.is_null()) continue;
      return refuse(RpcError::kHeaderMismatch, "Missing required header: " + header_name);
    }
    auto decoded = decode_header_value(*raw);
    if (!decoded) return refuse(RpcError::kHeaderMismatch, header_name + " is not valid base64");
    std::string expected = value.is_string() ? value.get<std::string>() : dump_json(value);
    if (value.is_null() || *decoded != expected) {
      return refuse(RpcError::kHeaderMismatch,
                    header_name + " header does not match the argument '" + name + "'");
    }
  }
  return std::nullopt;
}

std::variant<Envelope, Refusal> check_modern_request(const std::string& method, const Json& params,
                                                     const WireHeaders* headers) {
  Envelope envelope;
  if (auto refused = check_envelope(params, envelope)) return *refused;
  if (headers) {
    if (auto refused = check_headers(method, envelope, *headers)) return *refused;
  }
  if (envelope.version != kModernVersion) {
    return refuse(RpcError::kUnsupportedProtocolVersion,
                  "Unsupported protocol version: " + envelope.version,
                  {{"supported", Json::array({std::string(kModernVersion)})},
                   {"requested", envelope.version}});
  }
  if (headers) {
    if (auto refused = check_routing(method, params, *headers)) return *refused;
  }
  return envelope;
}

}  // namespace hermes::mcp
