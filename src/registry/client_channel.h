// SPDX-License-Identifier: MIT
// What a running tool may ask of the connected client: send a notification
// (logging, progress), or ask the user (elicitation). The MCP server
// implements it; tests and the `call` subcommand use NullClientChannel.
#pragma once

#include "json/json.h"

#include <chrono>
#include <optional>
#include <stop_token>
#include <string>

namespace hermes::registry {

class ClientChannel {
 public:
  virtual ~ClientChannel() = default;
  // Sends a JSON-RPC notification; dropped when the client is gone.
  virtual void notify(const std::string& method, const Json& params) = 0;
  // True when the client declared the `elicitation` capability.
  virtual bool supports_elicitation() const = 0;
  // False when a notification sent after the call that caused it has
  // returned cannot reach the client (background process events).
  virtual bool notifies_after_call() const { return true; }
  // The channel to keep for what is sent after this call has returned (a
  // background job's events): one that lives as long as the session.
  virtual ClientChannel& session_channel() { return *this; }
  // Sends a request to the client and waits for its result. nullopt on an
  // error response, timeout, stop request or disconnect.
  virtual std::optional<Json> request(const std::string& method, const Json& params,
                                      std::chrono::milliseconds timeout, std::stop_token stop) = 0;
  // request() for a question with a name: where the protocol names a call's
  // questions (the 2026-07-28 wire's `inputRequests`), `key` is its name
  // there; everywhere else it is the plain request.
  virtual std::optional<Json> request_named(const std::string& key, const std::string& method,
                                            const Json& params, std::chrono::milliseconds timeout,
                                            std::stop_token stop) {
    (void)key;
    return request(method, params, timeout, stop);
  }
  // The rest of the call is long: where the call can become a task (the
  // 2026-07-28 wire's tasks extension, declared by the client) it does so
  // now instead of after its inline budget; elsewhere nothing happens.
  virtual void continue_as_task() {}
};

class NullClientChannel final : public ClientChannel {
 public:
  void notify(const std::string&, const Json&) override {}
  bool supports_elicitation() const override { return false; }
  bool notifies_after_call() const override { return false; }
  std::optional<Json> request(const std::string&, const Json&, std::chrono::milliseconds,
                              std::stop_token) override {
    return std::nullopt;
  }
};

}  // namespace hermes::registry
