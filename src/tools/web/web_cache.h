// SPDX-License-Identifier: MIT
// The in-memory caches of the web tools. Searches: keyed by backend,
// normalised query and bucketed limit, successes only, and concurrent
// identical searches share one backend call. Extracts: an LRU of clean page
// text bounded in bytes. Both expire after a TTL on an injectable clock.
#pragma once

#include "core/result.h"
#include "web/backend.h"

#include <chrono>
#include <functional>
#include <future>
#include <list>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace hermes::web_tools {

using Clock = std::function<std::chrono::steady_clock::time_point()>;

struct CachePolicy {
  bool enabled = true;
  std::chrono::minutes ttl{20};
  size_t extract_bytes = 64u << 20;
  Clock now = [] { return std::chrono::steady_clock::now(); };
};

using SearchHits = Result<std::vector<web::SearchHit>>;

class SearchMemo {
 public:
  explicit SearchMemo(CachePolicy policy) : policy_(std::move(policy)) {}
  // The cached hits for `key`, or `run()`'s (shared with concurrent callers
  // of the same key; kept only when it succeeded).
  SearchHits get(const std::string& key, const std::function<SearchHits()>& run);

 private:
  struct Entry {
    std::shared_future<SearchHits> result;
    std::chrono::steady_clock::time_point expires;
    uint64_t id = 0;
  };
  CachePolicy policy_;
  std::mutex mu_;
  std::map<std::string, Entry> entries_;  // mu_
  uint64_t next_id_ = 0;                  // mu_
};

struct CachedPage {
  std::string url;  // final URL
  std::string title;
  std::string content;
};

class PageCache {
 public:
  explicit PageCache(CachePolicy policy) : policy_(std::move(policy)) {}
  std::optional<CachedPage> find(const std::string& key);
  void put(const std::string& key, CachedPage page);

 private:
  struct Entry {
    std::string key;
    CachedPage page;
    std::chrono::steady_clock::time_point expires;
  };
  void evict_locked();
  CachePolicy policy_;
  std::mutex mu_;
  std::list<Entry> lru_;                                     // most recent first; mu_
  std::map<std::string, std::list<Entry>::iterator> index_;  // mu_
  size_t bytes_ = 0;                                         // mu_
};

// `  Foo   BAR ` → `foo bar`.
std::string normalized_query(const std::string& query);
// 10, 20, 50 or 100: the limit a backend is asked for.
int bucketed_limit(int limit);

}  // namespace hermes::web_tools
