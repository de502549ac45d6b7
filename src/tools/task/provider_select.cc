// SPDX-License-Identifier: MIT
// Liveness rules and the auto-pick, fixed against Hermes' real auth.json.
#include "tools/task/provider_select.h"

#include <algorithm>

namespace hermes::task {
namespace {

bool is_limit_code(const Json& value) {
  if (value.is_number_integer()) {
    int64_t code = value.get<int64_t>();
    return code == 429 || code == 402;
  }
  if (value.is_number()) return value.get<double>() == 429 || value.get<double>() == 402;
  if (!value.is_string()) return false;
  const std::string& text = value.get_ref<const std::string&>();
  return text == "429" || text == "402";
}

bool is_live(Liveness l) { return l == Liveness::kAlive || l == Liveness::kForgiven; }

bool any_live(const ProviderCredentials& entry, int64_t now_ms, int64_t ttl_ms) {
  return std::any_of(entry.credentials.begin(), entry.credentials.end(), [&](const Credential& c) {
    return is_live(credential_liveness(c, now_ms, ttl_ms));
  });
}

size_t tiebreak_rank(const std::vector<std::string>& order, const std::string& provider) {
  auto it = std::find(order.begin(), order.end(), provider);
  return static_cast<size_t>(it - order.begin());  // unlisted → order.size()
}

}  // namespace

Liveness credential_liveness(const Credential& c, int64_t now_ms, int64_t forgive_ttl_ms) {
  if (!c.is_object) return Liveness::kDead;
  const Json& status = c.last_status;
  if (status.is_string() && status.get_ref<const std::string&>() == "dead") return Liveness::kDead;
  bool exhausted = (status.is_string() && status.get_ref<const std::string&>() == "exhausted") ||
                   is_limit_code(status);
  if (!exhausted) return Liveness::kAlive;
  if (c.last_error_reset_at_ms && *c.last_error_reset_at_ms < now_ms) return Liveness::kForgiven;
  if (forgive_ttl_ms > 0 && c.last_status_at_ms && now_ms - *c.last_status_at_ms > forgive_ttl_ms) {
    return Liveness::kForgiven;
  }
  return Liveness::kExhausted;
}

std::set<std::string> alive_providers(const AuthSnapshot& auth, int64_t now_ms,
                                      int64_t forgive_ttl_ms) {
  std::set<std::string> alive;
  for (const auto* group : {&auth.pool, &auth.providers}) {
    for (const ProviderCredentials& entry : *group) {
      if (any_live(entry, now_ms, forgive_ttl_ms)) alive.insert(entry.provider);
    }
  }
  return alive;
}

bool provider_known(const AuthSnapshot& auth, const std::string& provider) {
  auto named = [&](const ProviderCredentials& e) { return e.provider == provider; };
  return std::any_of(auth.pool.begin(), auth.pool.end(), named) ||
         std::any_of(auth.providers.begin(), auth.providers.end(), named);
}

std::optional<ProviderModel> pick_provider(const AuthSnapshot& auth, const PickInput& in) {
  std::set<std::string> alive = alive_providers(auth, in.now_ms, in.forgive_ttl_ms);
  std::string capability = classify_capability(in.prompt, in.map);
  std::vector<ProviderModel> ranked;
  for (const ProviderModel& row : rows_for(in.map, capability)) {
    if (alive.count(row.provider)) ranked.push_back(row);
  }
  std::stable_sort(ranked.begin(), ranked.end(),
                   [&](const ProviderModel& a, const ProviderModel& b) {
                     return tiebreak_rank(in.tiebreak_order, a.provider) <
                            tiebreak_rank(in.tiebreak_order, b.provider);
                   });
  if (ranked.empty()) return std::nullopt;
  return ranked.front();
}

}  // namespace hermes::task
