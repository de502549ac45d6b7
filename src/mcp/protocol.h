// SPDX-License-Identifier: MIT
// MCP protocol facts as data: supported revisions, JSON-RPC error codes and
// message builders, and the toJSON of the server's own structures.
#pragma once

#include "json/json.h"
#include "registry/tool.h"

#include <string>
#include <string_view>
#include <vector>

namespace hermes::mcp {

enum class RpcError {
  kParseError = -32700,
  kInvalidRequest = -32600,
  kMethodNotFound = -32601,
  kInvalidParams = -32602,
  kInternalError = -32603,
  // resources/read of an unknown URI, in the legacy revisions.
  kResourceNotFound = -32002,
  // Reserved by the 2026-07-28 revision.
  kHeaderMismatch = -32020,
  kMissingClientCapability = -32021,
  kUnsupportedProtocolVersion = -32022,
};

// The modern era's one revision; requests claim it in their `_meta`.
inline constexpr std::string_view kModernVersion = "2026-07-28";

// Revisions we speak, oldest first; the last is our latest.
const std::vector<std::string>& supported_versions();
// The client's version when we support it, else our latest.
std::string negotiate_version(const Json& requested);

Json make_result(const Json& id, Json result);
// A null `id` (unknown: the message did not parse or had no valid id) is
// left out: both eras' schemas forbid `"id": null`.
Json make_error(const Json& id, RpcError code, const std::string& message, Json data = Json());
Json make_notification(const std::string& method, Json params);

struct ServerIdentity {
  std::string name = "hermes-tools";
  std::string version;
  std::string instructions;
};

// The initialize result for `version`; `offered`: capabilities beyond tools
// and logging (resources, prompts, completions).
Json initialize_result(const ServerIdentity& identity, const std::string& version,
                       const Json& offered = Json::object());
// The modern era's server/discover result.
Json discover_result(const ServerIdentity& identity, bool tasks,
                     const Json& offered = Json::object());
// Marks a modern-era result: `resultType` (when the builder has not set
// it) and our serverInfo in `_meta`.
Json modern_result(const ServerIdentity& identity, Json result,
                   std::string_view result_type = "complete");
// How long clients may cache tools/list (and discover) on the modern wire.
inline constexpr int kListTtlMs = 600000;

// One tools/list entry.
Json tool_to_json(const registry::ToolSpec& spec, const std::string& description);
// A tools/call result: the tool's JSON text as one text block, then each
// further block (media base64); `structured`, unless null, as
// `structuredContent` (the same JSON, for a tool with an `outputSchema`).
Json call_result(std::string text, bool is_error,
                 const std::vector<registry::ContentBlock>& content = {}, Json structured = Json());
// One MCP content block (`image`, `audio` or `resource`).
Json content_block_json(const registry::ContentBlock& block);

// True for a JSON-RPC id we accept: a string or an integer.
bool is_valid_id(const Json& id);

// The member `key` of a request's params, or null when the params are no
// object or lack it: a client's params of any shape are read without a throw.
const Json& param(const Json& params, const char* key);

}  // namespace hermes::mcp
