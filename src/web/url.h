// SPDX-License-Identifier: MIT
// URLs for the web tools, parsed by libcurl's URL API (the same parser the
// fetcher dials with, so the host we vet is the host curl connects to).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace hermes::web {

struct Url {
  std::string text;    // the whole URL, re-serialised
  std::string scheme;  // lower case
  std::string host;    // lower case, IDNA (punycode), no brackets, no trailing dot
  int port = 0;        // explicit or the scheme's default
};

// Any absolute URL with a host; nullopt when it does not parse.
std::optional<Url> parse_url(std::string_view text);

// The IDNA (punycode) form of a host name, lower case, by UTS #46
// non-transitional processing (`Münich.example` → `xn--mnich-kva.example`;
// full-width digits and ideographic full stops map to ASCII); an ASCII name
// is only lower-cased. nullopt when the name is not a valid IDN.
std::optional<std::string> ascii_host(std::string_view host);

// `reference` resolved against `base` (links, redirects); nullopt when the
// result is not a URL.
std::optional<std::string> resolve_url(std::string_view base, std::string_view reference);

// What a model typed made fetchable: trimmed, whitespace after `scheme://`
// dropped, and for http(s) the host IDNA-encoded and every path, query and
// fragment byte outside the unreserved set and `/%:@!$&'()*+,;=` (plus `?`
// after the path) percent-encoded; existing escapes are kept.
std::string normalize_url(std::string_view raw);

// `%xx` escapes decoded (invalid ones kept as written).
std::string percent_decode(std::string_view text);

// Every byte outside [A-Za-z0-9-._~] as `%XX` (a query or form value).
std::string encode_component(std::string_view text);

}  // namespace hermes::web
