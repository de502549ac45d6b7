// SPDX-License-Identifier: MIT
// A client that answers every request (an elicitation, say) with one
// scripted reply, and remembers what it was asked.
#pragma once

#include "json/json.h"
#include "registry/client_channel.h"

#include <chrono>
#include <optional>
#include <stop_token>
#include <string>

namespace hermes::testing {

class ScriptedClient final : public registry::ClientChannel {
 public:
  // nullopt: no usable answer (an error response, the timeout).
  explicit ScriptedClient(std::optional<Json> reply) : reply_(std::move(reply)) {}
  void notify(const std::string&, const Json&) override {}
  bool supports_elicitation() const override { return true; }
  std::optional<Json> request(const std::string& method, const Json& params,
                              std::chrono::milliseconds, std::stop_token) override {
    ++asked;
    last_method = method;
    last_params = params;
    return reply_;
  }
  int asked = 0;
  std::string last_method;
  Json last_params;

 private:
  std::optional<Json> reply_;
};

}  // namespace hermes::testing
