// SPDX-License-Identifier: MIT
#include "tools/web/web_cache.h"

#include "core/strings.h"
#include "web/markdown_text.h"

namespace hermes::web_tools {

std::string normalized_query(const std::string& query) {
  std::string out;
  web::append_collapsed(out, to_lower(query));
  return trim(out);
}

int bucketed_limit(int limit) {
  for (int bucket : {10, 20, 50}) {
    if (limit <= bucket) return bucket;
  }
  return 100;
}

SearchHits SearchMemo::get(const std::string& key, const std::function<SearchHits()>& run) {
  if (!policy_.enabled) return run();
  std::promise<SearchHits> promise;
  uint64_t id = 0;
  {
    std::lock_guard lock(mu_);
    auto now = policy_.now();
    auto it = entries_.find(key);
    if (it != entries_.end() && it->second.expires > now) return it->second.result.get();
    id = ++next_id_;
    entries_[key] = {promise.get_future().share(), now + policy_.ttl, id};
  }
  SearchHits result = run();
  promise.set_value(result);
  if (!result) {
    std::lock_guard lock(mu_);
    auto it = entries_.find(key);
    if (it != entries_.end() && it->second.id == id) entries_.erase(it);
  }
  return result;
}

std::optional<CachedPage> PageCache::find(const std::string& key) {
  if (!policy_.enabled) return std::nullopt;
  std::lock_guard lock(mu_);
  auto it = index_.find(key);
  if (it == index_.end()) return std::nullopt;
  if (it->second->expires <= policy_.now()) {
    bytes_ -= it->second->page.content.size();
    lru_.erase(it->second);
    index_.erase(it);
    return std::nullopt;
  }
  lru_.splice(lru_.begin(), lru_, it->second);
  return it->second->page;
}

void PageCache::put(const std::string& key, CachedPage page) {
  if (!policy_.enabled || page.content.size() > policy_.extract_bytes) return;
  std::lock_guard lock(mu_);
  if (auto it = index_.find(key); it != index_.end()) {
    bytes_ -= it->second->page.content.size();
    lru_.erase(it->second);
    index_.erase(it);
  }
  bytes_ += page.content.size();
  lru_.push_front({key, std::move(page), policy_.now() + policy_.ttl});
  index_[key] = lru_.begin();
  evict_locked();
}

void PageCache::evict_locked() {
  while (bytes_ > policy_.extract_bytes && !lru_.empty()) {
    bytes_ -= lru_.back().page.content.size();
    index_.erase(lru_.back().key);
    lru_.pop_back();
  }
}

}  // namespace hermes::web_tools
