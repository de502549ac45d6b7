// SPDX-License-Identifier: MIT
#include "mcp/request_state.h"

#include "core/base64.h"
#include "core/strings.h"
#include "json/json_parse.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace hermes::mcp {
namespace {

using std::chrono::duration_cast;
using std::chrono::milliseconds;

// The arguments as text that does not depend on the order a client wrote
// their keys in (a retry may rebuild them): objects with sorted keys.
std::string canonical(const Json& value) {
  if (value.is_object()) {
    std::vector<std::string> keys;
    for (const auto& [key, member] : value.items()) keys.push_back(key);
    std::sort(keys.begin(), keys.end());
    std::string out = "{";
    for (const std::string& key : keys) {
      if (out.size() > 1) out += ',';
      out += dump_json(Json(key)) + ":" + canonical(value.at(key));
    }
    return out + "}";
  }
  if (value.is_array()) {
    std::string out = "[";
    for (const Json& item : value) {
      if (out.size() > 1) out += ',';
      out += canonical(item);
    }
    return out + "]";
  }
  return dump_json(value);
}

// Each part behind its length, so that no two different bindings read as
// the same bytes.
void frame(std::string& out, std::string_view part) {
  out += std::to_string(part.size());
  out += ':';
  out += part;
}

int64_t to_ms(Clock::TimePoint t) {
  return duration_cast<milliseconds>(t.time_since_epoch()).count();
}

Error refused(const std::string& why) { return Error::InvalidArgument("requestState " + why); }

}  // namespace

RequestStates::RequestStates(const Clock& clock) : clock_(clock) {
  if (RAND_bytes(key_.data(), static_cast<int>(key_.size())) != 1) {
    throw std::runtime_error("no random bytes for the request-state key");
  }
}

std::string RequestStates::fingerprint(const std::string& text) const {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  HMAC(EVP_sha256(), key_.data(), static_cast<int>(key_.size()),
       reinterpret_cast<const unsigned char*>(text.data()), text.size(), out, &length);
  return base64_encode(std::string_view(reinterpret_cast<const char*>(out), length));
}

std::string RequestStates::mac(const std::string& payload, const StateBinding& binding) const {
  std::string text;
  frame(text, payload);
  frame(text, binding.principal);
  frame(text, binding.tool);
  frame(text, canonical(binding.arguments));
  return fingerprint(text);
}

std::string RequestStates::issue(const StateBinding& binding, const Json& record) const {
  Json body = {
      {"exp", to_ms(clock_.now() + kLifetime)}, {"nonce", random_hex(16)}, {"record", record}};
  std::string payload = base64_encode(dump_json(body));
  return payload + "." + mac(payload, binding);
}

Result<Json> RequestStates::redeem(const std::string& state, const StateBinding& binding) {
  if (state.size() > kMaxStateBytes) return refused("is too long");
  size_t dot = state.rfind('.');
  if (dot == std::string::npos) return refused("is not one this server issued");
  std::string payload = state.substr(0, dot);
  std::string expected = mac(payload, binding);
  std::string_view given = std::string_view(state).substr(dot + 1);
  if (given.size() != expected.size() ||
      CRYPTO_memcmp(given.data(), expected.data(), given.size()) != 0) {
    return refused(
        "is not one this server issued for this call (altered, or issued to another principal "
        "or for another tool or other arguments)");
  }
  // Signed here, so well formed; checked all the same rather than trusted.
  std::optional<std::string> text = base64_decode(payload);
  Result<Json> body = text ? parse_json(*text) : Result<Json>(refused("is malformed"));
  if (!body || !body->is_object() || !(*body)["exp"].is_number_integer() ||
      !(*body)["nonce"].is_string() || !(*body)["record"].is_object()) {
    return refused("is malformed");
  }
  Clock::TimePoint now = clock_.now();
  Clock::TimePoint expires{milliseconds((*body)["exp"].get<int64_t>())};
  if (now >= expires) return refused("has expired");
  std::lock_guard lock(mu_);
  std::erase_if(spent_, [&](const auto& entry) { return entry.second <= now; });
  if (spent_.size() >= kMaxSpent) return refused("cannot be checked now (too many in use)");
  if (!spent_.emplace((*body)["nonce"].get<std::string>(), expires).second) {
    return refused("was already used");
  }
  return std::move((*body)["record"]);
}

}  // namespace hermes::mcp
