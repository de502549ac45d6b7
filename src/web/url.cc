// SPDX-License-Identifier: MIT
#include "web/url.h"

#include "core/strings.h"
#include "web/curl_library.h"

#include <algorithm>
#include <idn2.h>
#include <memory>

namespace hermes::web {
namespace {

// Exists only once curl_library() has loaded.
struct UrlHandleFree {
  void operator()(CURLU* u) const { curl_library()->url_cleanup(u); }
};
using UrlHandle = std::unique_ptr<CURLU, UrlHandleFree>;

std::optional<std::string> get_part(CURLU* u, CURLUPart part, unsigned flags = 0) {
  char* value = nullptr;
  const CurlLibrary* curl = curl_library();
  if (curl->url_get(u, part, &value, flags) != CURLUE_OK || !value) return std::nullopt;
  std::string out(value);
  curl->free(value);
  return out;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

bool unreserved(unsigned char c) {
  return std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~';
}

void append_escaped(std::string& out, unsigned char c) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  out += '%';
  out += kHex[c >> 4];
  out += kHex[c & 15];
}

bool keep_literal(unsigned char c, bool after_path) {
  static constexpr std::string_view kSafe = "/%:@!$&'()*+,;=";
  if (unreserved(c) || kSafe.find(static_cast<char>(c)) != std::string_view::npos) return true;
  return after_path && (c == '?' || c == '#');
}

// Percent-encodes the path, query and fragment (`tail` starts at the path).
std::string encode_tail(std::string_view tail) {
  std::string out;
  bool after_path = false;
  for (unsigned char c : tail) {
    if (c == '?' || c == '#') after_path = true;
    if (keep_literal(c, after_path))
      out += static_cast<char>(c);
    else
      append_escaped(out, c);
  }
  return out;
}

bool is_ascii(std::string_view text) {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

// `host[:port]` with the name in its IDNA form; as written when it is ASCII
// or cannot be converted (parse_url then refuses it).
std::string ascii_hostport(const std::string& hostport) {
  if (is_ascii(hostport)) return hostport;
  size_t colon = hostport.rfind(':');
  bool has_port = colon != std::string::npos && is_ascii(std::string_view(hostport).substr(colon));
  auto name = ascii_host(has_port ? hostport.substr(0, colon) : hostport);
  if (!name) return hostport;
  return has_port ? *name + hostport.substr(colon) : *name;
}

}  // namespace

std::optional<Url> parse_url(std::string_view text) {
  const CurlLibrary* curl = curl_library();
  if (!curl) return std::nullopt;
  auto* url_set = curl->url_set;
  UrlHandle u(curl->url());
  std::string input(text);
  if (input.find_first_of(std::string_view("\0\r\n", 3)) != std::string::npos) return std::nullopt;
  if (url_set(u.get(), CURLUPART_URL, input.c_str(), CURLU_NON_SUPPORT_SCHEME) != CURLUE_OK)
    return std::nullopt;
  // Our own IDNA conversion: every check and the dial see the ASCII name.
  auto host = get_part(u.get(), CURLUPART_HOST);
  if (host && !is_ascii(*host)) {
    host = ascii_host(*host);
    if (!host || url_set(u.get(), CURLUPART_HOST, host->c_str(), 0) != CURLUE_OK)
      return std::nullopt;
    host = get_part(u.get(), CURLUPART_HOST);
  }
  auto scheme = get_part(u.get(), CURLUPART_SCHEME);
  auto port = get_part(u.get(), CURLUPART_PORT, CURLU_DEFAULT_PORT);
  auto whole = get_part(u.get(), CURLUPART_URL);
  if (!host || host->empty() || !scheme || !whole) return std::nullopt;
  Url out{*whole, to_lower(*scheme), to_lower(*host), 0};
  if (out.host.size() > 2 && out.host.front() == '[')
    out.host = out.host.substr(1, out.host.size() - 2);
  while (!out.host.empty() && out.host.back() == '.') out.host.pop_back();
  if (out.host.empty()) return std::nullopt;
  out.port = port ? static_cast<int>(parse_int(*port).value_or(0)) : 0;
  return out;
}

std::optional<std::string> ascii_host(std::string_view host) {
  if (is_ascii(host)) return to_lower(host);
  char* out = nullptr;
  std::string input(host);
  int rc = idn2_to_ascii_8z(input.c_str(), &out, IDN2_NONTRANSITIONAL | IDN2_NFC_INPUT);
  if (rc != IDN2_OK || !out) return std::nullopt;
  std::string ascii = to_lower(out);
  idn2_free(out);
  if (!is_ascii(ascii) || ascii.empty()) return std::nullopt;
  return ascii;
}

std::optional<std::string> resolve_url(std::string_view base, std::string_view reference) {
  const CurlLibrary* curl = curl_library();
  if (!curl) return std::nullopt;
  auto* url_set = curl->url_set;
  UrlHandle u(curl->url());
  std::string b(base), r(trim(reference));
  if (url_set(u.get(), CURLUPART_URL, b.c_str(), CURLU_NON_SUPPORT_SCHEME) != CURLUE_OK)
    return std::nullopt;
  unsigned flags = CURLU_NON_SUPPORT_SCHEME | CURLU_URLENCODE;
  if (url_set(u.get(), CURLUPART_URL, r.c_str(), flags) != CURLUE_OK) return std::nullopt;
  return get_part(u.get(), CURLUPART_URL);
}

std::string normalize_url(std::string_view raw) {
  std::string url = trim(raw);
  size_t sep = url.find("://");
  if (sep == std::string::npos) return url;
  size_t authority = sep + 3;
  size_t skip = authority;
  while (skip < url.size() && is_space(url[skip])) ++skip;
  url.erase(authority, skip - authority);
  std::string scheme = to_lower(url.substr(0, sep));
  if (scheme != "http" && scheme != "https") return url;
  size_t path = url.find_first_of("/?#", authority);
  if (path == std::string::npos) path = url.size();
  std::string hostport = url.substr(authority, path - authority);
  size_t at = hostport.rfind('@');
  std::string userinfo = at == std::string::npos ? "" : hostport.substr(0, at + 1);
  std::string host = hostport.substr(userinfo.size());
  return url.substr(0, authority) + userinfo + ascii_hostport(host) +
         encode_tail(std::string_view(url).substr(path));
}

std::string percent_decode(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() &&
        std::isxdigit(static_cast<unsigned char>(text[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(text[i + 2]))) {
      out += static_cast<char>(std::stoi(std::string(text.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

std::string encode_component(std::string_view text) {
  std::string out;
  for (unsigned char c : text) {
    if (unreserved(c))
      out += static_cast<char>(c);
    else
      append_escaped(out, c);
  }
  return out;
}

}  // namespace hermes::web
