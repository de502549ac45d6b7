// SPDX-License-Identifier: MIT
// Where a web fetch may go. We resolve names ourselves, vet every answer
// against the address table, and the fetcher dials only vetted addresses,
// so a name that answers differently later (DNS rebinding) changes nothing.
#pragma once

#include "core/result.h"
#include "web/address.h"
#include "web/url.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace hermes::web {

inline constexpr std::string_view kBlockedInternal =
    "Blocked: URL targets a private or internal network address";
// Before the address checks: `file:///etc/passwd` names no address at all.
inline constexpr std::string_view kBlockedScheme =
    "Blocked: only http and https URLs can be fetched";

// The name-lookup seam (tests inject answers).
class Resolver {
 public:
  virtual ~Resolver() = default;
  // Every address `host` has; an error when it does not resolve.
  virtual Result<std::vector<IpAddress>> resolve(const std::string& host) const = 0;
};

// getaddrinfo(AF_UNSPEC, SOCK_STREAM).
std::shared_ptr<const Resolver> system_resolver();

// Loopback `address:port` pairs that test fixtures listen on. Only the
// environment variable HERMES_TOOLS_TEST_ALLOW_HOSTS (never config.yaml)
// fills it, so no user configuration can open loopback by accident.
class TestAllowlist {
 public:
  // `127.0.0.1:8123,[::1]:8124`: loopback IP literals with a port, nothing
  // else (a name, a private address or a missing port is an error).
  static Result<TestAllowlist> parse(std::string_view spec);
  // From the environment variable; an invalid value is an error.
  static Result<TestAllowlist> from_environment();

  bool allows(const IpAddress& address, int port) const;
  bool empty() const { return entries_.empty(); }
  std::string describe() const;

 private:
  struct Entry {
    IpAddress address;
    int port;
  };
  std::vector<Entry> entries_;
};

// The proxies fetches go through with `web.native.use_proxy: true`, taken
// from the environment as curl reads it: `http_proxy` for http,
// `https_proxy`/`HTTPS_PROXY` for https, else `all_proxy`/`ALL_PROXY`.
struct ProxyEnv {
  std::string http;
  std::string https;
  static ProxyEnv from_environment();
  // The proxy for `scheme`; empty: none, the fetch is direct and pinned.
  const std::string& for_scheme(const std::string& scheme) const;
};

struct GuardOptions {
  // `security.allow_private_urls`: internal ranges allowed, metadata never.
  bool allow_private = false;
  TestAllowlist test_fixtures;
  ProxyEnv proxies;  // empty unless `web.native.use_proxy` is on
};

struct VettedTarget {
  std::vector<IpAddress> addresses;  // every address the name had, all allowed
  bool test_fixture = false;         // reached through the test allowlist
  // Non-empty: fetched through this proxy (the proxy is the egress
  // boundary: no pinning; `addresses` is empty when the name did not
  // resolve here).
  std::string proxy;
};

class UrlGuard {
 public:
  UrlGuard(std::shared_ptr<const Resolver> resolver, GuardOptions options);

  // Scheme http(s), not a metadata name, resolvable, and every answer
  // allowed; otherwise kPermissionDenied carrying kBlockedInternal. A name
  // that does not resolve passes only when a proxy serves its scheme.
  Result<VettedTarget> vet(const Url& url) const;
  // The same check for a URL given as text.
  Result<VettedTarget> vet(std::string_view url) const;
  // The second guard at connect time: may this socket address be dialled?
  bool may_connect(const IpAddress& address, int port) const;
  bool private_allowed() const { return options_.allow_private; }

 private:
  std::shared_ptr<const Resolver> resolver_;
  GuardOptions options_;
};

}  // namespace hermes::web
