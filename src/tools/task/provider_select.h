// SPDX-License-Identifier: MIT
// Provider liveness (L1), capability rows (L2) and the static tiebreak (L3):
// which provider/model an `auto` call uses, and whether an explicit provider
// exists.
#pragma once

#include "tools/task/auth_store.h"
#include "tools/task/capability_map.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>

namespace hermes::task {

enum class Liveness {
  kAlive,
  kExhausted,  // rate/billing limited, waiting for its reset or forgiveness
  kForgiven,   // exhausted, but the reset passed or the mark is older than the TTL
  kDead,       // Hermes' permanent `dead`, or not an object
};

// One credential: alive when last_status is absent, null, "ok" or anything
// unrecognised; exhausted when it is "exhausted", 429 or 402 (string or
// number); revived (kForgiven) when last_error_reset_at has passed or, with
// `forgive_ttl_ms` > 0, last_status_at is older than the TTL. Hermes' "dead"
// never revives by time.
Liveness credential_liveness(const Credential& credential, int64_t now_ms, int64_t forgive_ttl_ms);

// Providers with at least one live (alive or forgiven) credential in the pool
// or as a top-level `providers` object.
std::set<std::string> alive_providers(const AuthSnapshot& auth, int64_t now_ms,
                                      int64_t forgive_ttl_ms);

// Whether `provider` is a key of credential_pool or providers (liveness not
// checked: an explicit choice is the caller's responsibility).
bool provider_known(const AuthSnapshot& auth, const std::string& provider);

struct PickInput {
  const std::string& prompt;
  const CapabilityMap& map;
  const std::vector<std::string>& tiebreak_order;
  int64_t now_ms;
  int64_t forgive_ttl_ms;
};

// The first capability row whose provider is alive, rows stable-sorted by
// tiebreak index (unlisted providers after listed ones); nullopt when none.
std::optional<ProviderModel> pick_provider(const AuthSnapshot& auth, const PickInput& in);

}  // namespace hermes::task
