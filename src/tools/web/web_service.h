// SPDX-License-Identifier: MIT
// What the web tools share within a session: configuration read once (the
// vendor environment, URL guard, fetch limits, cache settings), the caches,
// and the directory long pages are stored in. Tests replace the resolver
// and clock through `WebServiceOptions`.
#pragma once

#include "registry/session.h"
#include "tools/web/web_cache.h"
#include "web/backend.h"
#include "web/http.h"
#include "web/url_guard.h"

#include <memory>
#include <mutex>
#include <string>

namespace hermes {
class Config;
}  // namespace hermes

namespace hermes::web_tools {

struct WebServiceOptions {
  std::shared_ptr<const web::Resolver> resolver;  // null: the system resolver
  Clock clock;                                    // null: steady_clock
};

class WebService {
 public:
  WebService(const Config& config, web::TestAllowlist fixtures, WebServiceOptions options = {});

  const Config& config() const { return config_; }
  const web::EnvLookup& env() const { return env_; }
  const web::UrlGuard& guard() const { return *guard_; }
  std::shared_ptr<const web::UrlGuard> shared_guard() const { return guard_; }
  const web::HttpLimits& fetch_limits() const { return limits_; }
  // `web.native.call_timeout`: all of one web_extract call's native fetches.
  std::chrono::seconds call_timeout() const { return call_timeout_; }
  SearchMemo& searches() { return searches_; }
  PageCache& pages() { return pages_; }
  // `$HERMES_HOME/cache/web`.
  const std::string& store_dir() const { return store_dir_; }
  // Whether pages of `url`, vetted as `target`, may be cached: never
  // private, loopback, test-fixture, `.local`, single-label or exempt hosts.
  bool cacheable(const std::string& url, const web::VettedTarget& target) const;

 private:
  const Config& config_;
  web::EnvLookup env_;
  std::shared_ptr<const web::UrlGuard> guard_;
  web::HttpLimits limits_;
  std::chrono::seconds call_timeout_;
  CachePolicy cache_;
  SearchMemo searches_;
  PageCache pages_;
  std::string store_dir_;
  std::vector<std::string> exempt_hosts_;
};

// The session's WebService, built on first use.
struct WebState : registry::SessionState {
  std::once_flag once;
  std::unique_ptr<WebService> service;
};
WebService& web_service(registry::Session& session, const Config& config);

}  // namespace hermes::web_tools
