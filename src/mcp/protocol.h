// SPDX-License-Identifier: MIT
// MCP protocol facts as data: supported revisions, JSON-RPC error codes and
// message builders, and the toJSON of the server's own structures.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/json.h"
#include "registry/tool.h"

namespace hermes::mcp {

enum class RpcError {
  kParseError = -32700,
  kInvalidRequest = -32600,
  kMethodNotFound = -32601,
  kInvalidParams = -32602,
  kInternalError = -32603,
};

// Revisions we speak, oldest first; the last is our latest.
const std::vector<std::string>& supported_versions();
// The client's version when we support it, else our latest.
std::string negotiate_version(const Json& requested);

Json make_result(const Json& id, Json result);
Json make_error(const Json& id, RpcError code, const std::string& message);
Json make_notification(const std::string& method, Json params);

struct ServerIdentity {
  std::string name = "hermes-tools";
  std::string version;
  std::string instructions;
};

// The initialize result for `version`.
Json initialize_result(const ServerIdentity& identity, const std::string& version);
// One tools/list entry.
Json tool_to_json(const ToolSpec& spec, const std::string& description);
// A tools/call result: the tool's JSON text as one text block.
Json call_result(const std::string& text, bool is_error);

// True for a JSON-RPC id we accept: a string or an integer.
bool is_valid_id(const Json& id);

}  // namespace hermes::mcp
