// SPDX-License-Identifier: MIT
#include "http/guard.h"

#include "core/strings.h"

#include <algorithm>
#include <cctype>

namespace hermes::http {
namespace {

bool valid_port(std::string_view port) {
  return !port.empty() && port.size() <= 5 &&
         std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool valid_host_chars(std::string_view host) {
  return !host.empty() && std::all_of(host.begin(), host.end(), [](unsigned char c) {
    return std::isalnum(c) || c == '.' || c == '-' || c == '_' || c == ':' || c == '[' || c == ']';
  });
}

// Does `entry` ("host" or "host:port") admit host `h` with port `p`?
bool entry_admits(const std::string& entry, const std::string& h, const std::string& p) {
  if (entry == "*") return true;
  auto split = split_host_port(entry);
  if (!split) return false;
  return split->first == h && (split->second.empty() || split->second == p);
}

}  // namespace

std::optional<std::pair<std::string, std::string>> split_host_port(std::string_view authority) {
  std::string_view host = authority, port;
  if (authority.starts_with('[')) {
    size_t close = authority.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    host = authority.substr(0, close + 1);
    std::string_view rest = authority.substr(close + 1);
    if (!rest.empty() && (!rest.starts_with(':') || !valid_port(rest.substr(1))))
      return std::nullopt;
    if (!rest.empty()) port = rest.substr(1);
  } else if (size_t colon = authority.rfind(':'); colon != std::string_view::npos) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
    if (!valid_port(port) || host.find(':') != std::string_view::npos) return std::nullopt;
  }
  if (!valid_host_chars(host)) return std::nullopt;
  return std::make_pair(to_lower(host), std::string(port));
}

bool is_loopback_host(std::string_view host) {
  if (host == "localhost" || host == "[::1]") return true;
  // 127.0.0.0/8 as a literal only: "127.evil.example" is a name.
  return host.starts_with("127.") && std::all_of(host.begin(), host.end(), [](char c) {
           return (c >= '0' && c <= '9') || c == '.';
         });
}

Guard::Guard(std::vector<std::string> hosts, std::vector<std::string> origins)
    : hosts_(std::move(hosts)), origins_(std::move(origins)) {
  for (auto& h : hosts_) h = to_lower(h);
  for (auto& o : origins_) o = to_lower(o);
}

bool Guard::host_allowed(std::string_view host) const {
  auto split = split_host_port(host);
  if (!split) return false;
  if (is_loopback_host(split->first)) return true;
  return std::any_of(hosts_.begin(), hosts_.end(), [&](const std::string& entry) {
    return entry_admits(entry, split->first, split->second);
  });
}

bool Guard::origin_allowed(std::optional<std::string_view> origin) const {
  if (!origin) return true;
  std::string text = to_lower(*origin);
  for (const auto& entry : origins_) {
    if (entry == "*" || entry == text) return true;
  }
  size_t scheme_end = text.find("://");
  if (scheme_end == std::string::npos) return false;
  std::string scheme = text.substr(0, scheme_end);
  if (scheme != "http" && scheme != "https") return false;
  auto split = split_host_port(std::string_view(text).substr(scheme_end + 3));
  return split && is_loopback_host(split->first);
}

}  // namespace hermes::http
