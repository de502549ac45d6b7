// SPDX-License-Identifier: MIT
// Catalog construction; pure apart from the inputs it is handed.
#include "tools/task/models_catalog.h"

#include "core/strings.h"
#include "tools/task/provider_select.h"

#include <algorithm>
#include <map>
#include <set>

namespace hermes::task {
namespace {

struct CacheEntry {
  std::vector<std::string> models;
  Json at;
};

// Case-insensitive first (as localeCompare orders ASCII), bytes second.
bool locale_less(const std::string& a, const std::string& b) {
  std::string la = to_lower(a), lb = to_lower(b);
  return la != lb ? la < lb : a < b;
}

std::map<std::string, CacheEntry> cache_entries(const Json* cache) {
  std::map<std::string, CacheEntry> out;
  if (!cache || !cache->is_object()) return out;
  for (const auto& [key, value] : cache->items()) {
    if (!value.is_object()) continue;
    std::string name = key.substr(0, key.find("+base_url="));
    bool variant = name != key;
    if (variant && (out.count(name) || cache->contains(name))) continue;
    CacheEntry entry;
    if (auto at = value.find("at"); at != value.end() && at->is_number()) entry.at = *at;
    if (auto models = value.find("models"); models != value.end() && models->is_array()) {
      for (const Json& m : *models) {
        if (m.is_string()) entry.models.push_back(m.get<std::string>());
      }
    }
    out[name] = std::move(entry);
  }
  return out;
}

// model id → capabilities whose rows list it for `provider`.
std::map<std::string, std::set<std::string>> capability_tags(const std::string& provider,
                                                             const CapabilityMap& map) {
  std::map<std::string, std::set<std::string>> tags;
  for (const std::string& cap : known_capabilities()) {
    auto rows = map.find(cap);
    if (rows == map.end()) continue;
    for (const ProviderModel& row : rows->second) {
      if (row.provider == provider) tags[row.model].insert(cap);
    }
  }
  return tags;
}

std::vector<CatalogModel> models_for(const std::string& provider, const CacheEntry* entry,
                                     const TaskConfig& config) {
  auto tags = capability_tags(provider, config.capability_map);
  std::set<std::string> ids;
  if (entry && !entry->models.empty()) {
    ids.insert(entry->models.begin(), entry->models.end());
  } else {
    for (const auto& [id, caps] : tags) ids.insert(id);
  }
  std::string default_model = default_model_for(provider, config.capability_map);
  std::vector<CatalogModel> out;
  for (const std::string& id : ids) {
    CatalogModel m{id, {}, {}, id == default_model};
    if (auto it = tags.find(id); it != tags.end())
      m.capabilities.assign(it->second.begin(), it->second.end());
    m.input_types = input_types_for(m.capabilities);
    out.push_back(std::move(m));
  }
  std::sort(out.begin(), out.end(), [](auto& a, auto& b) { return locale_less(a.id, b.id); });
  return out;
}

const Credential* first_pool_credential(const AuthSnapshot* auth, const std::string& provider) {
  if (!auth) return nullptr;
  for (const ProviderCredentials& entry : auth->pool) {
    if (entry.provider == provider && !entry.credentials.empty() &&
        entry.credentials[0].is_object) {
      return &entry.credentials[0];
    }
  }
  return nullptr;
}

}  // namespace

std::vector<std::string> input_types_for(const std::vector<std::string>& capabilities) {
  std::set<std::string> types = {"text"};
  for (const std::string& cap : capabilities) {
    if (cap == "vision") types.insert({"image", "pdf"});
    if (cap == "multimodal") types.insert({"image", "audio", "video"});
  }
  return {types.begin(), types.end()};
}

Catalog build_catalog(const CatalogInput& in) {
  auto cache = cache_entries(in.models_cache);
  std::set<std::string> names;
  for (const auto& [name, entry] : cache) names.insert(name);
  for (const auto& [cap, rows] : in.config.capability_map) {
    for (const ProviderModel& row : rows) names.insert(row.provider);
  }
  std::optional<std::set<std::string>> alive;
  if (in.auth) alive = alive_providers(*in.auth, in.now_ms, in.config.exhausted_forgive_ttl_ms);
  Catalog catalog;
  bool used_cache = false, used_map = false;
  for (const std::string& name : names) {
    auto it = cache.find(name);
    const CacheEntry* entry = it == cache.end() ? nullptr : &it->second;
    std::vector<CatalogModel> models = models_for(name, entry, in.config);
    if (models.empty()) continue;
    CatalogProvider p;
    p.provider = name;
    p.status = !alive ? "unknown" : alive->count(name) ? "alive" : "dead";
    if (const Credential* cred = first_pool_credential(in.auth, name)) {
      p.last_status = cred->last_status;
      p.last_error_code = cred->last_error_code;
    }
    p.fetched_at = entry ? entry->at : Json();
    p.source = entry && !entry->models.empty() ? "cache" : "capability-map";
    (p.source == "cache" ? used_cache : used_map) = true;
    if (p.fetched_at.is_number() &&
        (catalog.fetched_at.is_null() || p.fetched_at > catalog.fetched_at)) {
      catalog.fetched_at = p.fetched_at;
    }
    p.model_count = static_cast<int64_t>(models.size());
    p.default_model = default_model_for(name, in.config.capability_map);
    p.models = std::move(models);
    catalog.providers.push_back(std::move(p));
  }
  std::sort(catalog.providers.begin(), catalog.providers.end(),
            [](auto& a, auto& b) { return locale_less(a.provider, b.provider); });
  catalog.source = used_cache && used_map ? "mixed" : used_cache ? "cache" : "capability-map";
  return catalog;
}

}  // namespace hermes::task
