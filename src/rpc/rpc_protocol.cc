// SPDX-License-Identifier: MIT
#include "rpc/rpc_protocol.h"

#include "json/json_parse.h"

#include <sys/random.h>

#include <cerrno>
#include <stdexcept>
#include <vector>

namespace hermes::rpc {

Result<RpcRequest> parse_request(std::string_view line) {
  HERMES_ASSIGN_OR_RETURN(Json parsed, parse_json(line));
  if (!parsed.is_object()) return Error::InvalidArgument("request is not a JSON object");
  RpcRequest request;
  auto tool = parsed.find("tool");
  if (tool == parsed.end() || !tool->is_string()) {
    return Error::InvalidArgument("'tool' must be a string");
  }
  request.tool = tool->get<std::string>();
  if (auto args = parsed.find("args"); args != parsed.end() && !args->is_null()) {
    if (!args->is_object()) return Error::InvalidArgument("'args' must be an object");
    request.args = std::move(*args);
  }
  if (auto token = parsed.find("token"); token != parsed.end() && !token->is_null()) {
    if (!token->is_string()) return Error::InvalidArgument("'token' must be a string");
    request.token = token->get<std::string>();
  }
  return request;
}

bool tokens_equal(std::string_view given, std::string_view expected) {
  if (expected.empty() || given.size() != expected.size()) return false;
  // Accumulate every difference so the loop's duration does not depend on
  // the first mismatching byte.
  volatile unsigned char diff = 0;
  for (size_t i = 0; i < expected.size(); ++i) {
    diff = diff | static_cast<unsigned char>(given[i] ^ expected[i]);
  }
  return diff == 0;
}

std::string frame_response(const Json& response) {
  std::string line = dump_json(response);
  line += '\n';
  return line;
}

Json rpc_error(const std::string& message) {
  Json out = Json::object();
  out["error"] = message;
  return out;
}

std::string dispatch_request(const RpcRequest& request, RpcHandler& handler) {
  try {
    return frame_response(handler.handle(request.tool, request.args));
  } catch (const std::exception& e) {
    return frame_response(rpc_error(e.what()));
  }
}

std::string answer_private(std::string_view line, RpcHandler& handler) {
  auto request = parse_request(line);
  if (!request) return frame_response(rpc_error("Invalid RPC request: " + request.error().message));
  return dispatch_request(*request, handler);
}

}  // namespace hermes::rpc
