// SPDX-License-Identifier: MIT
#include "web/vendor_http.h"

#include "core/strings.h"
#include "json/json_parse.h"

namespace hermes::web {
namespace {

std::string failure_detail(const Error& e, const VendorCall& call) {
  if (e.code == ErrorCode::kTimeout)
    return "timed out after " + std::to_string(call.timeout.count()) + "s";
  if (e.code == ErrorCode::kTooLarge) return "response too large";
  return e.message;
}

}  // namespace

Result<HttpResponse> vendor_exchange(const VendorCall& call, std::stop_token stop) {
  HttpLimits limits;
  limits.total_timeout = call.timeout;
  limits.connect_timeout =
      std::min<std::chrono::milliseconds>(call.timeout, std::chrono::seconds(10));
  limits.max_body = 16u << 20;
  HttpRequest request{call.url, call.method, call.headers, call.body, true};
  return perform(request, limits, nullptr, stop);
}

Result<Json> vendor_json(const VendorCall& call, std::stop_token stop) {
  std::string prefix = call.display + " " + call.op + " failed: ";
  auto reply = vendor_exchange(call, stop);
  if (!reply) {
    if (reply.error().code == ErrorCode::kCancelled) return reply.error();
    return Error{reply.error().code,
                 scrub(prefix + failure_detail(reply.error(), call), call.secret)};
  }
  if (reply->status < 200 || reply->status > 299) {
    std::string detail =
        "HTTP " + std::to_string(reply->status) + ": " + vendor_message(reply->body);
    return Error::Unavailable(scrub(prefix + detail, call.secret));
  }
  auto parsed = parse_vendor_json(reply->body);
  if (!parsed || !parsed->is_object()) return Error::Unavailable(prefix + "invalid JSON response");
  return parsed;
}

Result<Json> parse_vendor_json(std::string_view text) {
  return parse_json(text, JsonLimits{.max_bytes = 16u << 20, .max_depth = 64});
}

std::string vendor_message(const std::string& body) {
  auto parsed = parse_vendor_json(body);
  if (parsed && parsed->is_object()) {
    for (const char* key : {"error", "message", "detail"}) {
      auto it = parsed->find(key);
      if (it == parsed->end()) continue;
      if (it->is_string()) return it->get<std::string>();
      if (it->is_object()) {
        if (std::string inner = text_field(*it, "message"); !inner.empty()) return inner;
      }
    }
  }
  return sanitize_utf8(utf8_prefix(body, 300));
}

std::string scrub(std::string text, const std::string& secret) {
  if (secret.size() < 4) return text;
  for (size_t at = text.find(secret); at != std::string::npos; at = text.find(secret, at))
    text.replace(at, secret.size(), "***");
  return text;
}

std::string text_field(const Json& object, const char* key) {
  if (!object.is_object()) return "";
  auto it = object.find(key);
  if (it == object.end()) return "";
  if (it->is_string()) return it->get<std::string>();
  if (it->is_number()) return it->dump();
  return "";
}

}  // namespace hermes::web
