// SPDX-License-Identifier: MIT
// The execute_code RPC wire format (docs/tools/execute_code.md): one JSON request
// per line, `{"tool":…,"args":{…},"token":…}`, answered by one JSON line.
#pragma once

#include "core/result.h"
#include "core/strings.h"
#include "json/json.h"
#include "rpc/rpc_handler.h"

#include <string>
#include <string_view>

namespace hermes::rpc {

struct RpcRequest {
  std::string tool;
  Json args = Json::object();  // always an object
  std::string token;           // empty when the request carried none
};

// Parses one request line (without its newline). kInvalidArgument with the
// parser's or the validator's message when the line is not a JSON object
// with a string `tool`, an object (or absent/null) `args` and a string (or
// absent) `token`.
Result<RpcRequest> parse_request(std::string_view line);

// Compares two tokens in time independent of where they differ (the length
// may leak; the content does not). Empty `expected` never matches.
bool tokens_equal(std::string_view given, std::string_view expected);

// Tokens and socket names: hermes::random_hex (core/strings.h).
using ::hermes::random_hex;

// The line sent back for `response`: compact JSON (invalid UTF-8 replaced)
// plus `\n`.
std::string frame_response(const Json& response);

// `{"error": message}`.
Json rpc_error(const std::string& message);

// The framed answer of `handler` to `request`; an exception it throws is
// answered with its message.
std::string dispatch_request(const RpcRequest& request, RpcHandler& handler);

// The framed answer to one request line that arrived over a channel only
// the script can reach (the file RPC's private directory, a kernel's
// stream), so no token is checked. A line that is not a request is answered
// with `Invalid RPC request: …`.
std::string answer_private(std::string_view line, RpcHandler& handler);

}  // namespace hermes::rpc
