// SPDX-License-Identifier: MIT
// Telling the two protocol eras apart, per message. A request whose
// `params._meta` claims a protocol version is modern (2026-07-28: no
// handshake, everything the server needs travels with each request);
// anything else is legacy (the initialize handshake). The modern validation
// ladder lives here so stdio and HTTP refuse the same requests the same way.
#pragma once

#include "json/json.h"
#include "mcp/protocol.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace hermes::mcp {

enum class Era { kLegacy, kModern };

inline constexpr std::string_view kTasksExtension = "io.modelcontextprotocol/tasks";

// A valid modern request's envelope.
struct Envelope {
  std::string version;
  Json client_capabilities = Json::object();
  Json progress_token;  // null when absent
  bool declares_tasks() const;
  bool declares_elicitation() const;
};

// The routing headers HTTP adds to a modern POST; absent on stdio.
struct WireHeaders {
  std::optional<std::string> protocol_version;  // MCP-Protocol-Version
  std::optional<std::string> method;            // Mcp-Method
  std::optional<std::string> name;              // Mcp-Name, base64 sentinel decoded
};

// A refused request: the JSON-RPC error and the HTTP status it maps to.
struct Refusal {
  RpcError code;
  std::string message;
  Json data;
  int http_status = 400;
};

// True when `params._meta` holds the protocol-version claim (of any type).
bool has_claim(const Json& params);
// True for a version string of the modern era or later (string order, as
// the revision names sort by date; "v999.0.0" counts too).
bool names_modern_version(std::string_view version);
// Decodes a header value that may use the `=?base64?…?=` sentinel. nullopt
// for a malformed sentinel.
std::optional<std::string> decode_header_value(std::string_view value);

// SEP-2243: a tool's input schema may give a top-level property
// `"x-mcp-header": "Name"`; a tools/call over HTTP then carries that
// argument's value in the header `Mcp-Param-Name` too (a string as is, a
// number or boolean as its JSON text; `=?base64?…?=` decoded). A header that
// is missing while the argument is given, malformed, or says another value
// is refused with -32020. `header` looks a header up by its lower-case name.
std::optional<Refusal> check_param_headers(
    const Json& input_schema, const Json& args,
    const std::function<std::optional<std::string_view>(const std::string&)>& header);

// The ladder for a request carrying a claim: envelope shape, header/claim
// agreement (when `headers` is given), supported version, routing headers.
std::variant<Envelope, Refusal> check_modern_request(const std::string& method, const Json& params,
                                                     const WireHeaders* headers);

}  // namespace hermes::mcp
