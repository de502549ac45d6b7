// SPDX-License-Identifier: MIT
// Calls to vendor APIs: bounded exchanges (timeout, stop token, size), the
// vendor's own error message preferred over raw body text, and the key
// scrubbed from anything we repeat.
#pragma once

#include "core/result.h"
#include "json/json.h"
#include "web/http.h"

#include <chrono>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

namespace hermes::web {

struct VendorCall {
  std::string display;  // `Tavily`
  std::string op;       // `search` or `extract`
  std::string url;
  std::string method = "POST";
  std::vector<std::string> headers;
  std::string body;
  std::chrono::seconds timeout{60};
  std::string secret;  // scrubbed from every message
};

// The exchange itself: status and body, or a transport error (kTimeout,
// kCancelled, kUnavailable with curl's text).
Result<HttpResponse> vendor_exchange(const VendorCall& call, std::stop_token stop);

// A keyed vendor's JSON answer, or `<Display> <op> failed: ` followed by
// `HTTP <code>: <vendor message or first 300 body chars>`, `timed out after
// <n>s`, `invalid JSON response` or the transport error.
Result<Json> vendor_json(const VendorCall& call, std::stop_token stop);

// A vendor's JSON text through the bounded parser: at most 16 MiB and 64
// levels deep (vendor answers are a few levels; anything deeper is hostile).
Result<Json> parse_vendor_json(std::string_view text);

// The `error` / `message` / `detail` text of a JSON error body, else the
// first 300 characters of the body.
std::string vendor_message(const std::string& body);

// `text` with every occurrence of `secret` replaced by `***`.
std::string scrub(std::string text, const std::string& secret);

// A JSON string field, or "" when absent or not a string.
std::string text_field(const Json& object, const char* key);

}  // namespace hermes::web
