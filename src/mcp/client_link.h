// SPDX-License-Identifier: MIT
// The server's ClientChannel: notifications and server-to-client requests
// (elicitation) over the same stdout, with responses routed back by id from
// the reader thread. Thread-safe.
#pragma once

#include "mcp/output_writer.h"
#include "mcp/pending_requests.h"
#include "registry/client_channel.h"

#include <atomic>
#include <optional>
#include <string>
#include <string_view>

namespace hermes::mcp {

// True for an RFC 5424 level name as MCP spells it (debug … emergency).
bool is_log_level(std::string_view level);

class ClientLink final : public registry::ClientChannel {
 public:
  explicit ClientLink(OutputWriter& writer) : writer_(writer) {}

  // From initialize: what the client declared.
  void set_capabilities(const Json& capabilities);
  // logging/setLevel: notifications/message below `level` are dropped.
  // False for an unknown level name.
  bool set_log_level(const std::string& level);
  // Reader thread: a response (result or error) to one of our requests.
  // False when the id is not ours.
  bool deliver_response(const Json& message);
  // Reader thread at EOF: wakes every waiting request with nullopt.
  void close();

  void notify(const std::string& method, const Json& params) override;
  bool supports_elicitation() const override { return elicitation_; }
  std::optional<Json> request(const std::string& method, const Json& params,
                              std::chrono::milliseconds timeout, std::stop_token stop) override;

 private:
  OutputWriter& writer_;
  std::atomic<bool> elicitation_{false};
  std::atomic<int> min_log_level_{0};
  PendingRequests pending_;
};

}  // namespace hermes::mcp
