// SPDX-License-Identifier: MIT
// The host side of execute_code's file RPC (docs/tools/execute_code.md): finds
// the requests a script has renamed into its rpc directory on the target,
// answers each through the handler and moves the response into place whole,
// all through shell commands run by the backend.
#pragma once

#include "backend/backend.h"
#include "core/result.h"
#include "rpc/rpc_handler.h"

#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

namespace hermes::execute_code {

struct PendingRequest {
  std::string seq;   // the digits of `req_<seq>`
  std::string body;  // the file's bytes
};

// Parses what the listing command printed: `req_<digits>` then the file's
// base64 on the next line, per request. Entries with another name or broken
// base64 are skipped.
std::vector<PendingRequest> parse_listing(std::string_view output);

// Not thread-safe; one instance per run, driven from one thread.
class FileRpcHost {
 public:
  // `backend` and `handler` must outlive the host.
  FileRpcHost(backend::Backend& backend, std::string rpc_dir, rpc::RpcHandler& handler)
      : backend_(backend), rpc_dir_(std::move(rpc_dir)), handler_(handler) {}

  // One round: lists the finished requests (one command) and answers them in
  // order, one command each. A request that is not JSON is deleted
  // unanswered; one that is JSON but not a request is answered with
  // `Invalid RPC request: …`. Errors are transport failures.
  Status poll_once(std::stop_token stop);

 private:
  Status reply(const PendingRequest& request, const std::string* response, std::stop_token stop);

  backend::Backend& backend_;
  std::string rpc_dir_;
  rpc::RpcHandler& handler_;
};

}  // namespace hermes::execute_code
