// SPDX-License-Identifier: MIT
// One HTTP exchange on libcurl: no redirects followed, no proxy unless asked, no cookies,
// bounded in time and size, cancelled by the call's stop token. When a pin
// is given curl never resolves the name: it dials only the vetted addresses
// (CURLOPT_RESOLVE), and a connect-time check refuses any other address.
#pragma once

#include "core/result.h"
#include "web/url_guard.h"

#include <chrono>
#include <cstdint>
#include <stop_token>
#include <string>
#include <vector>

namespace hermes::web {

struct HttpLimits {
  std::chrono::milliseconds connect_timeout{10'000};
  std::chrono::milliseconds total_timeout{30'000};
  size_t max_body = 10 * 1024 * 1024;  // after decompression
  // Decompressed bytes per received byte beyond which a body is refused.
  size_t max_expansion = 100;
};

struct HttpRequest {
  std::string url;
  std::string method = "GET";  // GET or POST
  std::vector<std::string> headers;
  std::string body;
  bool decompress = false;  // send Accept-Encoding: gzip, deflate and decode
  std::string proxy;        // non-empty: through this proxy; otherwise none
};

// The addresses `host:port` may be reached at, all vetted by `guard`.
struct Pin {
  std::string host;
  int port = 0;
  std::vector<IpAddress> addresses;
  const UrlGuard* guard = nullptr;
};

struct HttpResponse {
  long status = 0;
  std::string content_type;  // lower case
  std::string location;      // the Location header, as sent
  std::string body;
};

// Errors: kTimeout (connect or whole transfer), kCancelled (stop token),
// kTooLarge (body over the limit or an expansion bomb), kPermissionDenied
// (the connect-time check refused an address), kUnavailable (anything else
// curl reports; the message is curl's own text).
Result<HttpResponse> perform(const HttpRequest& request, const HttpLimits& limits, const Pin* pin,
                             std::stop_token stop);

// "hermes-tools/<version> (+web_extract)".
const std::string& user_agent();

}  // namespace hermes::web
