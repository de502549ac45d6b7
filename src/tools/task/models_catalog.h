// SPDX-License-Identifier: MIT
// hermes_models' catalog: Hermes' provider_models_cache.json merged with
// auth.json liveness and the capability map (for providers with no cache).
#pragma once

#include "json/json.h"
#include "tools/task/auth_store.h"
#include "tools/task/task_config.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hermes::task {

struct CatalogModel {
  std::string id;
  std::vector<std::string> capabilities;  // sorted
  std::vector<std::string> input_types;   // sorted union over capabilities
  bool is_default = false;
};

struct CatalogProvider {
  std::string provider;
  std::string status;    // alive | dead | unknown (no auth.json)
  Json last_status;      // of the first pool credential, raw
  Json last_error_code;  // of the first pool credential, raw
  Json fetched_at;       // the cache entry's `at`, or null
  std::string source;    // cache | capability-map
  int64_t model_count = 0;
  std::string default_model;  // empty → null
  std::vector<CatalogModel> models;
};

struct Catalog {
  std::vector<CatalogProvider> providers;  // sorted by name
  std::string source;                      // cache | capability-map | mixed
  Json fetched_at;                         // newest `at`, or null
};

struct CatalogInput {
  const Json* models_cache = nullptr;  // parsed object, or null when unusable
  const AuthSnapshot* auth = nullptr;  // null when auth.json is unreadable
  const TaskConfig& config;
  int64_t now_ms = 0;
};

// Providers = cache keys (a `<p>+base_url=…` variant counts as `p` when `p`
// has no entry of its own) ∪ capability-map providers; a provider's models are
// its non-empty cache list, else its map models; providers with none are
// skipped. Status uses the same liveness (TTL forgiveness included) as the
// auto-pick; a provider absent from auth.json is dead.
Catalog build_catalog(const CatalogInput& in);

// vision → text,image,pdf; multimodal → text,image,audio,video; else text.
std::vector<std::string> input_types_for(const std::vector<std::string>& capabilities);

}  // namespace hermes::task
