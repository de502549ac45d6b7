// SPDX-License-Identifier: MIT
// The execute_code RPC wire format (docs/tools/execute_code.md): one JSON request
// per line, `{"tool":…,"args":{…},"token":…}`, answered by one JSON line.
#pragma once

#include "core/result.h"
#include "core/strings.h"
#include "json/json.h"

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

}  // namespace hermes::rpc
