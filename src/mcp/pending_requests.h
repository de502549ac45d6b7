// SPDX-License-Identifier: MIT
// The server's requests to a client (elicitation) that wait for their
// responses: ids are minted here, the caller waits for its answer, and the
// transport hands each response in as it arrives (stdio's reader thread,
// the POST that carries it on HTTP). Thread-safe.
#pragma once

#include "json/json.h"

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>

namespace hermes::mcp {

class PendingRequests {
 public:
  // Sends the request through `send` (false: it could not be sent) and waits
  // for its result. nullopt on an error response, a failed send, timeout,
  // stop request or close().
  std::optional<Json> ask(const std::string& method, const Json& params,
                          const std::function<bool(const Json& message)>& send,
                          std::chrono::milliseconds timeout, std::stop_token stop);
  // A response (result or error) to one of our requests; false when the id
  // is not one we wait for.
  bool deliver(const Json& message);
  // Wakes every waiting request with nullopt; later ones get nullopt at once.
  void close();

 private:
  struct Pending {
    bool done = false;
    std::optional<Json> result;
  };
  std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::string, Pending> pending_;  // mu_
  uint64_t next_id_ = 1;                    // mu_
  bool closed_ = false;                     // mu_
};

}  // namespace hermes::mcp
