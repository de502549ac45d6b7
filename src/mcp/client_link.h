// SPDX-License-Identifier: MIT
// The server's ClientChannel: notifications and server-to-client requests
// (elicitation) over the same stdout, with responses routed back by id from
// the reader thread. Thread-safe.
#pragma once

#include "mcp/log_threshold.h"
#include "mcp/output_writer.h"
#include "mcp/pending_requests.h"
#include "registry/client_channel.h"

#include <atomic>
#include <optional>
#include <string>
#include <string_view>

namespace hermes::mcp {

class ClientLink final : public registry::ClientChannel {
 public:
  explicit ClientLink(OutputWriter& writer) : writer_(writer) {}

  // From initialize: what the client declared.
  void set_capabilities(const Json& capabilities);
  // logging/setLevel: notifications/message below its level are dropped.
  LogThreshold& logs() { return logs_; }
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
  LogThreshold logs_;
  PendingRequests pending_;
};

}  // namespace hermes::mcp
