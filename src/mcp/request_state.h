// SPDX-License-Identifier: MIT
// The `requestState` of the 2026-07-28 wire's input_required round trips
// (mcp-http.md §2.8, §8.6). The client hands it back unchanged with the
// answers to the round's questions, and the retry runs the tool again, so
// the state carries what the call learnt in earlier rounds (each question's
// fingerprint and, once given, its answer). The client holds it and may
// change it, so it is signed with HMAC-SHA256 under a key drawn when the
// process starts, and the signature also covers the principal, the tool and
// the call's arguments: a state cannot be forged, moved to another
// principal or another command, or replayed (its nonce is spent once), and
// it expires. Thread-safe.
#pragma once

#include "core/clock.h"
#include "core/result.h"
#include "json/json.h"

#include <array>
#include <chrono>
#include <map>
#include <mutex>
#include <string>

namespace hermes::mcp {

// What a state is bound to: who made the call, and which call it is.
struct StateBinding {
  const std::string& principal;
  const std::string& tool;
  const Json& arguments;
};

class RequestStates {
 public:
  static constexpr std::chrono::minutes kLifetime{5};
  // A longer state is refused unread: the client's text is bounded.
  static constexpr size_t kMaxStateBytes = 1u << 20;
  // Nonces remembered until their states expire; past this, redeem refuses
  // (the client starts the call over) rather than grow without bound.
  static constexpr size_t kMaxSpent = 1u << 16;

  explicit RequestStates(const Clock& clock = steady_clock_source());

  // A state for the next round of the call `binding` names, carrying
  // `record` (an object).
  std::string issue(const StateBinding& binding, const Json& record) const;
  // The record of a state issued here for the same binding, not expired and
  // not redeemed before. kInvalidArgument otherwise, with the reason.
  Result<Json> redeem(const std::string& state, const StateBinding& binding);

  // A keyed fingerprint of `text` (HMAC under the same key): what a state
  // keeps of a question, so that an answer only ever meets its question.
  std::string fingerprint(const std::string& text) const;

 private:
  std::string mac(const std::string& payload, const StateBinding& binding) const;

  const Clock& clock_;
  std::array<unsigned char, 32> key_{};
  std::mutex mu_;
  std::map<std::string, Clock::TimePoint> spent_;  // mu_; nonce → its state's expiry
};

}  // namespace hermes::mcp
