// SPDX-License-Identifier: MIT
// The ClientChannel of one call on a connection where each request has its
// own response stream (legacy HTTP): notifications go through the session's
// RequestChannel, and a request to the client (elicitation, when the client
// declared it) travels on this call's stream, its response coming back in a
// later message that the transport hands to PendingRequests. Lives for the
// call; session_channel() is what outlives it. Thread-safe.
#pragma once

#include "mcp/pending_requests.h"
#include "mcp/request_channel.h"
#include "registry/client_channel.h"

#include <functional>

namespace hermes::mcp {

class CallChannel final : public registry::ClientChannel {
 public:
  // `send` writes one message on the call's stream.
  CallChannel(RequestChannel& session, PendingRequests& pending,
              std::function<void(const Json&)> send, bool elicitation)
      : session_(session), pending_(pending), send_(std::move(send)), elicitation_(elicitation) {}

  void notify(const std::string& method, const Json& params) override {
    session_.notify(method, params);
  }
  bool supports_elicitation() const override { return elicitation_; }
  bool notifies_after_call() const override { return session_.notifies_after_call(); }
  ClientChannel& session_channel() override { return session_; }
  std::optional<Json> request(const std::string& method, const Json& params,
                              std::chrono::milliseconds timeout, std::stop_token stop) override;

 private:
  RequestChannel& session_;
  PendingRequests& pending_;
  const std::function<void(const Json&)> send_;
  const bool elicitation_;
};

}  // namespace hermes::mcp
