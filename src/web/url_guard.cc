// SPDX-License-Identifier: MIT
#include "web/url_guard.h"

#include "core/strings.h"

#include <netdb.h>
#include <sys/socket.h>

#include <cctype>
#include <cstdlib>
#include <cstring>

namespace hermes::web {
namespace {

class SystemResolver final : public Resolver {
 public:
  Result<std::vector<IpAddress>> resolve(const std::string& host) const override {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* list = nullptr;
    int rc = getaddrinfo(host.c_str(), nullptr, &hints, &list);
    if (rc != 0)
      return Error::NotFound(std::string("could not resolve ") + host + ": " + gai_strerror(rc));
    std::vector<IpAddress> out;
    for (addrinfo* ai = list; ai; ai = ai->ai_next) out.push_back(from_sockaddr(ai->ai_addr));
    freeaddrinfo(list);
    return out;
  }

 private:
  static IpAddress from_sockaddr(const sockaddr* sa) {
    IpAddress a;
    if (sa->sa_family == AF_INET) {
      std::memcpy(a.bytes.data(), &reinterpret_cast<const sockaddr_in*>(sa)->sin_addr, 4);
    } else {
      a.is_v4 = false;
      std::memcpy(a.bytes.data(), &reinterpret_cast<const sockaddr_in6*>(sa)->sin6_addr, 16);
    }
    return a;
  }
};

std::string env_or_empty(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

std::string first_set(std::initializer_list<const char*> names) {
  for (const char* name : names)
    if (std::string value = env_or_empty(name); !value.empty()) return value;
  return "";
}

Error blocked() { return Error::PermissionDenied(std::string(kBlockedInternal)); }

// The scheme `url` names (RFC 3986: a letter, then letters, digits, `+-.`,
// then `:`), lower case; empty when it names none (`example.com/x`) or the
// colon starts a port (`localhost:8080`).
std::string scheme_of(std::string_view url) {
  auto letter = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; };
  auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  size_t colon = url.find(':');
  if (colon == 0 || colon == std::string_view::npos || !letter(url[0])) return "";
  for (char c : url.substr(0, colon))
    if (!letter(c) && !digit(c) && c != '+' && c != '-' && c != '.') return "";
  if (colon + 1 < url.size() && digit(url[colon + 1])) return "";
  return to_lower(url.substr(0, colon));
}

bool fetchable(const std::string& scheme) { return scheme == "http" || scheme == "https"; }

bool is_metadata_name(const std::string& host) {
  return host == "metadata.google.internal" || host == "metadata.goog";
}

}  // namespace

std::shared_ptr<const Resolver> system_resolver() {
  static const auto resolver = std::make_shared<SystemResolver>();
  return resolver;
}

Result<TestAllowlist> TestAllowlist::parse(std::string_view spec) {
  TestAllowlist out;
  for (const std::string& item : split(spec, ',')) {
    size_t colon = item.rfind(':');
    auto address = colon == std::string::npos ? std::nullopt : parse_ip(item.substr(0, colon));
    auto port = colon == std::string::npos ? std::nullopt : parse_int(item.substr(colon + 1));
    bool bracketed_v6 = address && (address->is_v4 || item.front() == '[');
    if (!address || !bracketed_v6 || !is_loopback(*address) || !port || *port < 1 || *port > 65535)
      return Error::InvalidArgument("HERMES_TOOLS_TEST_ALLOW_HOSTS: '" + item +
                                    "' is not a loopback IP literal with a port");
    out.entries_.push_back({*address, static_cast<int>(*port)});
  }
  return out;
}

Result<TestAllowlist> TestAllowlist::from_environment() {
  const char* spec = std::getenv("HERMES_TOOLS_TEST_ALLOW_HOSTS");
  if (!spec || !*spec) return TestAllowlist{};
  return parse(spec);
}

bool TestAllowlist::allows(const IpAddress& address, int port) const {
  for (const Entry& e : entries_)
    if (e.address == address && e.port == port) return true;
  return false;
}

std::string TestAllowlist::describe() const {
  std::string out;
  for (const Entry& e : entries_) {
    if (!out.empty()) out += ',';
    std::string ip = to_string(e.address);
    out += (e.address.is_v4 ? ip : "[" + ip + "]") + ":" + std::to_string(e.port);
  }
  return out;
}

ProxyEnv ProxyEnv::from_environment() {
  // curl ignores HTTP_PROXY in capitals (a CGI request header could set it).
  return {first_set({"http_proxy", "all_proxy", "ALL_PROXY"}),
          first_set({"https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"})};
}

const std::string& ProxyEnv::for_scheme(const std::string& scheme) const {
  return scheme == "https" ? https : http;
}

UrlGuard::UrlGuard(std::shared_ptr<const Resolver> resolver, GuardOptions options)
    : resolver_(std::move(resolver)), options_(std::move(options)) {}

Result<VettedTarget> UrlGuard::vet(std::string_view url) const {
  if (std::string scheme = scheme_of(url); !scheme.empty() && !fetchable(scheme))
    return Error::PermissionDenied(std::string(kBlockedScheme));
  auto parsed = parse_url(url);
  if (!parsed) return blocked();
  return vet(*parsed);
}

Result<VettedTarget> UrlGuard::vet(const Url& url) const {
  if (!fetchable(url.scheme)) return Error::PermissionDenied(std::string(kBlockedScheme));
  if (is_metadata_name(url.host)) return blocked();
  VettedTarget out;
  out.proxy = options_.proxies.for_scheme(url.scheme);
  std::vector<IpAddress> addresses;
  if (auto literal = parse_ip(url.host)) {
    addresses.push_back(*literal);
  } else {
    auto answers = resolver_->resolve(url.host);
    if (!answers || answers->empty()) {
      if (out.proxy.empty()) return blocked();
      return out;  // upstream's rule: the proxy resolves it
    }
    addresses = std::move(*answers);
  }
  for (const IpAddress& a : addresses) {
    if (address_allowed(a, options_.allow_private)) continue;
    if (!options_.test_fixtures.allows(a, url.port)) return blocked();
    out.test_fixture = true;
  }
  out.addresses = std::move(addresses);
  return out;
}

bool UrlGuard::may_connect(const IpAddress& address, int port) const {
  return address_allowed(address, options_.allow_private) ||
         options_.test_fixtures.allows(address, port);
}

}  // namespace hermes::web
