// SPDX-License-Identifier: MIT
#include "mcp/input_round.h"

#include "mcp/protocol.h"

namespace hermes::mcp {
namespace {

// The client capability a question's method needs; empty: none that a
// client could declare, so it is never asked.
std::string capability_of(const std::string& method) {
  if (method == "elicitation/create") return "elicitation";
  if (method == "sampling/createMessage") return "sampling";
  if (method == "roots/list") return "roots";
  return "";
}

// The record with each open question answered from `responses`.
Json answered(Json record, const Json& responses) {
  if (!record.is_object()) return Json::object();
  for (auto& [key, entry] : record.items()) {
    if (!entry.is_object() || !param(entry, "answer").is_null()) continue;
    if (const Json& given = param(responses, key.c_str()); given.is_object()) {
      entry["answer"] = given;
    }
  }
  return record;
}

}  // namespace

InputRound::InputRound(registry::ClientChannel& call, const Json& capabilities,
                       const RequestStates& states, Json record, const Json& responses)
    : call_(call),
      capabilities_(capabilities.is_object() ? capabilities : Json::object()),
      states_(states),
      known_(answered(std::move(record), responses)) {}

bool InputRound::usable(const std::string& method, const Json& answer) {
  if (!answer.is_object() || dump_json(answer).size() > kMaxAnswerBytes) return false;
  return method != "elicitation/create" || param(answer, "action").is_string();
}

bool InputRound::declared(const std::string& method) const {
  std::string capability = capability_of(method);
  return !capability.empty() && capabilities_.contains(capability);
}

bool InputRound::supports_elicitation() const { return declared("elicitation/create"); }

std::optional<Json> InputRound::request(const std::string& method, const Json& params,
                                        std::chrono::milliseconds timeout, std::stop_token stop) {
  size_t n;
  {
    std::lock_guard lock(mu_);
    n = ++numbered_;
  }
  return request_named("input-" + std::to_string(n), method, params, timeout, stop);
}

std::optional<Json> InputRound::request_named(const std::string& key, const std::string& method,
                                              const Json& params, std::chrono::milliseconds,
                                              std::stop_token) {
  if (!declared(method)) return std::nullopt;
  std::lock_guard lock(mu_);
  if (record_.size() >= kMaxQuestions) return std::nullopt;
  // A key asked twice in one run (a script's second approval) becomes
  // key-2, key-3 …, the same names on every run.
  std::string name = key;
  for (int i = 2; record_.contains(name); ++i) name = key + "-" + std::to_string(i);
  Json entry = {{"q", states_.fingerprint(method + "\n" + dump_json(params))}, {"answer", nullptr}};
  const Json& earlier = param(known_, name.c_str());
  if (param(earlier, "q") == entry["q"] && usable(method, param(earlier, "answer"))) {
    entry["answer"] = earlier["answer"];
    record_[name] = entry;
    return entry["answer"];
  }
  record_[name] = std::move(entry);
  questions_[name] = {{"method", method}, {"params", params}};
  return std::nullopt;
}

Json InputRound::questions() const {
  std::lock_guard lock(mu_);
  return questions_;
}

Json InputRound::record() const {
  std::lock_guard lock(mu_);
  return record_;
}

}  // namespace hermes::mcp
