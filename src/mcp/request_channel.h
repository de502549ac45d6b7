// SPDX-License-Identifier: MIT
// The ClientChannel of connections where a notification must travel with the
// request it belongs to: the modern era (stdio and HTTP) and legacy HTTP
// (each POST has its own response stream). Progress is routed by its token to
// the request that sent it while that request is open; anything unrelated to
// an open request (log messages, background process events) is dropped, as
// is any server-to-client request: approvals then take the contract's
// pending_approval path. Lives as long as its session. Thread-safe.
#pragma once

#include "registry/client_channel.h"

#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <utility>

namespace hermes::mcp {

class RequestChannel final : public registry::ClientChannel {
 public:
  using Sink = std::function<void(const Json& notification)>;

  // Progress carrying one token goes to one request while this lives.
  class Route {
   public:
    Route() = default;  // routes nothing
    Route(Route&& other) noexcept
        : channel_(std::exchange(other.channel_, nullptr)), key_(std::move(other.key_)) {}
    Route& operator=(Route&&) = delete;
    ~Route();

   private:
    friend class RequestChannel;
    Route(RequestChannel* channel, std::string key) : channel_(channel), key_(std::move(key)) {}

    RequestChannel* channel_ = nullptr;  // null: nothing was opened
    std::string key_;
  };

  // Routes progress carrying `token` to `sink` while the Route lives. A null
  // token opens nothing, and so does one that a request in flight already
  // uses (a client must not reuse a token while its request runs): the later
  // request goes without progress rather than take the earlier one's.
  [[nodiscard]] Route open(const Json& token, Sink sink);

  void notify(const std::string& method, const Json& params) override;
  bool supports_elicitation() const override { return false; }
  // Only progress of an open request travels: the stream a later event
  // would need is gone (and HTTP offers no standalone one).
  bool notifies_after_call() const override { return false; }
  std::optional<Json> request(const std::string&, const Json&, std::chrono::milliseconds,
                              std::stop_token) override {
    return std::nullopt;
  }

 private:
  std::mutex mu_;
  std::map<std::string, Sink> sinks_;  // mu_; by the token's JSON text
};

}  // namespace hermes::mcp
