// SPDX-License-Identifier: MIT
// The ClientChannel of one call on a connection where each request has its
// own response stream (legacy HTTP): log messages at or above the session's
// level travel on this call's stream, other notifications go through the
// session's RequestChannel (progress by its token), and a request to the
// client (elicitation, sampling) travels on this call's stream, its response
// coming back in a later message that the transport hands to
// PendingRequests. Lives for the call; session_channel() is what outlives it.
// Thread-safe.
#pragma once

#include "mcp/log_threshold.h"
#include "mcp/pending_requests.h"
#include "mcp/request_channel.h"
#include "registry/client_channel.h"

#include <functional>

namespace hermes::mcp {

class CallChannel final : public registry::ClientChannel {
 public:
  // `send` writes one message on the call's stream.
  CallChannel(RequestChannel& session, PendingRequests& pending, const LogThreshold& logs,
              std::function<void(const Json&)> send, bool elicitation)
      : session_(session),
        pending_(pending),
        logs_(logs),
        send_(std::move(send)),
        elicitation_(elicitation) {}

  void notify(const std::string& method, const Json& params) override;
  bool supports_elicitation() const override { return elicitation_; }
  bool notifies_after_call() const override { return session_.notifies_after_call(); }
  ClientChannel& session_channel() override { return session_; }
  std::optional<Json> request(const std::string& method, const Json& params,
                              std::chrono::milliseconds timeout, std::stop_token stop) override;

 private:
  RequestChannel& session_;
  PendingRequests& pending_;
  const LogThreshold& logs_;
  const std::function<void(const Json&)> send_;
  const bool elicitation_;
};

}  // namespace hermes::mcp
