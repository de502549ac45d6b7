// SPDX-License-Identifier: MIT
// What the RPC server calls for each authenticated request. The tools layer
// implements it (execute_code's bridge to the dispatcher), so rpc/ never
// links the tools.
#pragma once

#include "json/json.h"

#include <string>

namespace hermes::rpc {

class RpcHandler {
 public:
  virtual ~RpcHandler() = default;
  // Answers one request whose token has already been checked. Returns the
  // JSON object sent back to the script. Called from the server's thread,
  // one request at a time. An escaped exception becomes `{"error": what}`.
  virtual Json handle(const std::string& tool, const Json& args) = 0;
};

}  // namespace hermes::rpc
