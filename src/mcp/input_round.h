// SPDX-License-Identifier: MIT
// A 2026-07-28 tools/call's ClientChannel. That wire sends the client no
// requests (mcp-http.md §2.1): a question the tool asks (an approval, an
// elicitation, a sampling or roots request) is kept instead of sent, the tool
// goes on as if nobody answered (an approval then denies), and the call
// answers `input_required` with its questions and a requestState
// (request_state.h) that records them. The client's retry brings the answers
// and the state; the tool, run again, asks the same questions in the same
// order and each finds its answer here, provided it is the very question that
// was answered (its fingerprint matches): anything else is asked again.
// Only the methods whose capability this request declared are asked at all.
// Lives for one call. Thread-safe.
#pragma once

#include "mcp/request_state.h"
#include "registry/client_channel.h"

#include <mutex>
#include <string>

namespace hermes::mcp {

class InputRound final : public registry::ClientChannel {
 public:
  static constexpr size_t kMaxQuestions = 16;
  // An answer longer than this (as JSON text) counts as no answer.
  static constexpr size_t kMaxAnswerBytes = 16u << 10;

  // `call`: the channel the call's notifications take. `capabilities`: the
  // client capabilities of this request. `record`: what the redeemed
  // requestState carried, `{key: {"q": fingerprint, "answer": result|null}}`
  // (empty on a first round); `responses`: the retry's inputResponses, which
  // answer the record's open questions (any other key is ignored).
  InputRound(registry::ClientChannel& call, const Json& capabilities, const RequestStates& states,
             Json record, const Json& responses);

  void notify(const std::string& method, const Json& params) override {
    call_.notify(method, params);
  }
  bool supports_elicitation() const override;
  bool notifies_after_call() const override { return call_.notifies_after_call(); }
  ClientChannel& session_channel() override { return call_.session_channel(); }
  // The answer found for this question, else nullopt (the question is
  // kept). Never waits.
  std::optional<Json> request(const std::string& method, const Json& params,
                              std::chrono::milliseconds timeout, std::stop_token stop) override;
  std::optional<Json> request_named(const std::string& key, const std::string& method,
                                    const Json& params, std::chrono::milliseconds timeout,
                                    std::stop_token stop) override;

  // The questions still without an answer, `{key: {method, params}}`: the
  // input_required result's inputRequests. Empty when the call needs
  // nothing more.
  Json questions() const;
  // Every question this run asked, with its answer when it had one: what
  // the next requestState carries.
  Json record() const;

  // True when this request declared the capability `method` needs.
  bool declared(const std::string& method) const;
  // An answer a tool may be given: a result object of bounded size; an
  // elicitation's says what the user did.
  static bool usable(const std::string& method, const Json& answer);

 private:
  registry::ClientChannel& call_;
  const Json capabilities_;
  const RequestStates& states_;
  const Json known_;  // the earlier rounds' questions, answered where the client did
  mutable std::mutex mu_;
  size_t numbered_ = 0;              // mu_; questions asked without a key
  Json record_ = Json::object();     // mu_
  Json questions_ = Json::object();  // mu_
};

}  // namespace hermes::mcp
