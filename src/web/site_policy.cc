// SPDX-License-Identifier: MIT
#include "web/site_policy.h"

#include "core/config.h"
#include "core/log.h"
#include "core/strings.h"
#include "web/url.h"

#include <fstream>

namespace hermes::web {
namespace {

// `HTTPS://www.Example.com./path` → `example.com`.
std::string normalize_rule(std::string_view raw) {
  std::string rule = to_lower(trim(raw));
  if (rule.empty() || rule[0] == '#') return "";
  if (size_t sep = rule.find("://"); sep != std::string::npos) rule = rule.substr(sep + 3);
  rule = rule.substr(0, rule.find('/'));
  while (!rule.empty() && rule.back() == '.') rule.pop_back();
  if (starts_with(rule, "www.")) rule = rule.substr(4);
  // Hosts are compared in their IDNA form, so a rule may be written either way.
  bool wildcard = starts_with(rule, "*.");
  auto ascii = ascii_host(wildcard ? rule.substr(2) : rule);
  if (!ascii) return rule;
  return wildcard ? "*." + *ascii : *ascii;
}

// `*.x` matches `a.x` and deeper, never `x`; a bare rule matches the host
// and every subdomain.
bool matches(const std::string& host, const std::string& rule) {
  if (starts_with(rule, "*.")) return ends_with(host, rule.substr(1));
  return host == rule || ends_with(host, "." + rule);
}

std::string host_of(std::string_view url) {
  std::string text(trim(url));
  auto parsed = parse_url(text.find("://") == std::string::npos ? "http://" + text : text);
  return parsed ? parsed->host : "";
}

}  // namespace

std::string PolicyBlock::message() const {
  return "Blocked by website policy: '" + host + "' matched rule '" + rule + "' from " + source;
}

SitePolicy SitePolicy::from_config(const Config& config) {
  SitePolicy policy;
  if (!config.get_bool("security.website_blocklist.enabled", false)) return policy;
  for (const std::string& d : config.get_string_list("security.website_blocklist.domains"))
    policy.add_rule(d, "config");
  for (std::string file : config.get_string_list("security.website_blocklist.shared_files")) {
    if (!file.empty() && file[0] != '/') file = config.home() + "/" + file;
    policy.add_file(file);
  }
  return policy;
}

void SitePolicy::add_rule(std::string_view rule, const std::string& source) {
  std::string pattern = normalize_rule(rule);
  if (!pattern.empty()) rules_.push_back({pattern, source});
}

void SitePolicy::add_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    log::warn("website blocklist file not readable, skipped: " + path);
    return;
  }
  for (std::string line; std::getline(in, line);) add_rule(line, path);
}

std::optional<PolicyBlock> SitePolicy::check(std::string_view url) const {
  if (rules_.empty()) return std::nullopt;
  std::string host = host_of(url);
  if (host.empty()) return std::nullopt;
  for (const Rule& r : rules_)
    if (matches(host, r.pattern)) return PolicyBlock{host, r.pattern, r.source};
  return std::nullopt;
}

}  // namespace hermes::web
