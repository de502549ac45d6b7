// SPDX-License-Identifier: MIT
#include "tools/web/web_service.h"

#include "core/config.h"
#include "core/log.h"
#include "core/strings.h"
#include "web/backend_select.h"

#include <algorithm>

namespace hermes::web_tools {
namespace {

bool allow_private(const Config& config) {
  std::string env = to_lower(trim(
      std::getenv("HERMES_ALLOW_PRIVATE_URLS") ? std::getenv("HERMES_ALLOW_PRIVATE_URLS") : ""));
  if (env == "true" || env == "1" || env == "yes") return true;
  if (env == "false" || env == "0" || env == "no") return false;
  if (config.has("security.allow_private_urls"))
    return config.get_bool("security.allow_private_urls", false);
  return config.get_bool("browser.allow_private_urls", false);
}

CachePolicy cache_policy(const Config& config, const Clock& clock) {
  CachePolicy p;
  p.enabled = config.get_bool("web.cache_enabled", true);
  p.ttl = std::chrono::minutes(
      std::clamp<int64_t>(config.get_int("web.cache_ttl_minutes", 20), 1, 1440));
  if (clock) p.now = clock;
  return p;
}

// `web.native.use_proxy` (default off): the native fetcher goes through
// curl's proxy variables instead of dialling pinned addresses.
web::GuardOptions guard_options(const Config& config, web::TestAllowlist fixtures) {
  web::GuardOptions o{allow_private(config), std::move(fixtures), {}};
  if (config.get_bool("web.native.use_proxy", false)) o.proxies = web::ProxyEnv::from_environment();
  return o;
}

web::HttpLimits native_limits(const Config& config) {
  web::HttpLimits l;
  l.connect_timeout = std::chrono::seconds(
      std::clamp<int64_t>(config.get_int("web.native.connect_timeout", 10), 1, 120));
  l.total_timeout =
      std::chrono::seconds(std::clamp<int64_t>(config.get_int("web.native.timeout", 30), 1, 120));
  int64_t mib = std::clamp<int64_t>(config.get_int("web.native.max_body_mib", 10), 1, 100);
  l.max_body = static_cast<size_t>(mib) << 20;
  return l;
}

}  // namespace

WebService::WebService(const Config& config, web::TestAllowlist fixtures, WebServiceOptions options)
    : config_(config),
      env_(web::environment_with_dotenv(config.home())),
      guard_(std::make_shared<web::UrlGuard>(
          options.resolver ? options.resolver : web::system_resolver(),
          guard_options(config, std::move(fixtures)))),
      limits_(native_limits(config)),
      call_timeout_(std::clamp<int64_t>(config.get_int("web.native.call_timeout", 120), 1, 600)),
      cache_(cache_policy(config, options.clock)),
      searches_(cache_),
      pages_(cache_),
      store_dir_(config.home() + "/cache/web"),
      exempt_hosts_(config.get_string_list("web.cache_exempt_hosts")) {}

bool WebService::cacheable(const std::string& url, const web::VettedTarget& target) const {
  auto parsed = web::parse_url(url);
  if (!parsed || parsed->host.find('.') == std::string::npos || ends_with(parsed->host, ".local"))
    return false;
  for (const std::string& h : exempt_hosts_)
    if (to_lower(trim(h)) == parsed->host) return false;
  if (target.test_fixture || target.addresses.empty()) return false;
  return std::all_of(target.addresses.begin(), target.addresses.end(), [](const web::IpAddress& a) {
    return web::classify(a) == web::AddressClass::kPublic;
  });
}

WebService& web_service(registry::Session& session, const Config& config) {
  WebState& state = session.state<WebState>();
  std::call_once(state.once, [&] {
    if (state.service) return;  // installed by a test
    auto fixtures = web::TestAllowlist::from_environment();
    state.service = std::make_unique<WebService>(
        config, fixtures ? std::move(*fixtures) : web::TestAllowlist{});
  });
  return *state.service;
}

}  // namespace hermes::web_tools
