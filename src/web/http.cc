// SPDX-License-Identifier: MIT
#include "web/http.h"

#include "core/strings.h"
#include "web/curl_library.h"

#include <arpa/inet.h>
#include <sys/socket.h>

#include <algorithm>
#include <cstring>
#include <memory>

#ifndef HERMES_VERSION
#define HERMES_VERSION "0"
#endif

namespace hermes::web {
namespace {

struct Transfer {
  const CurlLibrary* curl = nullptr;
  CURL* easy = nullptr;
  const HttpLimits* limits = nullptr;
  const Pin* pin = nullptr;
  std::stop_token stop;
  HttpResponse response;
  curl_off_t received = 0;  // bytes on the wire, before decoding
  bool too_large = false;
  bool bomb = false;
  bool refused_address = false;
};

size_t on_body(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  size_t n = size * count;
  if (t->response.body.size() + n > t->limits->max_body) {
    t->too_large = true;
    return 0;
  }
  // Past 1 MiB a body may not expand more than max_expansion : 1.
  size_t decoded = t->response.body.size() + n;
  curl_off_t wire = 0;
  t->curl->easy_getinfo(t->easy, CURLINFO_SIZE_DOWNLOAD_T, &wire);
  t->received = std::max(t->received, wire);
  if (decoded > (1u << 20) &&
      decoded >
          t->limits->max_expansion * static_cast<size_t>(std::max<curl_off_t>(t->received, 1))) {
    t->bomb = true;
    return 0;
  }
  t->response.body.append(data, n);
  return n;
}

// Keeps the headers of the last response only (a 100 Continue comes first).
size_t on_header(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  std::string_view line(data, size * count);
  if (starts_with(line, "HTTP/")) {
    t->response.content_type.clear();
    t->response.location.clear();
  }
  size_t colon = line.find(':');
  if (colon == std::string_view::npos) return size * count;
  std::string name = to_lower(line.substr(0, colon));
  std::string value = trim(line.substr(colon + 1));
  if (name == "content-type") t->response.content_type = to_lower(value);
  if (name == "location") t->response.location = value;
  return size * count;
}

int on_progress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  auto* t = static_cast<Transfer*>(user);
  return t->stop.stop_requested() ? 1 : 0;
}

std::optional<std::pair<IpAddress, int>> endpoint_of(const curl_sockaddr* a) {
  IpAddress ip;
  if (a->family == AF_INET && a->addrlen >= sizeof(sockaddr_in)) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(&a->addr);
    std::memcpy(ip.bytes.data(), &in->sin_addr, 4);
    return std::make_pair(ip, static_cast<int>(ntohs(in->sin_port)));
  }
  if (a->family == AF_INET6 && a->addrlen >= sizeof(sockaddr_in6)) {
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(&a->addr);
    ip.is_v4 = false;
    std::memcpy(ip.bytes.data(), &in6->sin6_addr, 16);
    return std::make_pair(ip, static_cast<int>(ntohs(in6->sin6_port)));
  }
  return std::nullopt;
}

// Second guard: the address curl is about to dial must be one we vetted.
curl_socket_t on_open_socket(void* user, curlsocktype, curl_sockaddr* address) {
  auto* t = static_cast<Transfer*>(user);
  if (t->pin) {
    auto ep = endpoint_of(address);
    const auto& vetted = t->pin->addresses;
    bool ok = ep && std::find(vetted.begin(), vetted.end(), ep->first) != vetted.end() &&
              t->pin->guard->may_connect(ep->first, ep->second);
    if (!ok) {
      t->refused_address = true;
      return CURL_SOCKET_BAD;
    }
  }
  return socket(address->family, address->socktype, address->protocol);
}

// Both exist only once curl_library() has loaded.
struct EasyFree {
  void operator()(CURL* c) const { curl_library()->easy_cleanup(c); }
};
struct ListFree {
  void operator()(curl_slist* l) const { curl_library()->slist_free_all(l); }
};
using Easy = std::unique_ptr<CURL, EasyFree>;
using List = std::unique_ptr<curl_slist, ListFree>;

void append(List& list, const std::string& item) {
  curl_slist* next = curl_library()->slist_append(list.get(), item.c_str());
  if (next) {
    (void)list.release();
    list.reset(next);
  }
}

std::string resolve_entry(const Pin& pin) {
  std::string out = pin.host + ":" + std::to_string(pin.port) + ":";
  for (size_t i = 0; i < pin.addresses.size(); ++i) {
    std::string ip = to_string(pin.addresses[i]);
    out += (i ? "," : "") + (pin.addresses[i].is_v4 ? ip : "[" + ip + "]");
  }
  return out;
}

void set_common(CURL* c, const HttpLimits& limits, Transfer& t) {
  auto* setopt = t.curl->easy_setopt;
  setopt(c, CURLOPT_NOSIGNAL, 1L);
  setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
  setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
  setopt(c, CURLOPT_USERAGENT, user_agent().c_str());
  setopt(c, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(limits.connect_timeout.count()));
  setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(limits.total_timeout.count()));
  setopt(c, CURLOPT_WRITEFUNCTION, on_body);
  setopt(c, CURLOPT_WRITEDATA, &t);
  setopt(c, CURLOPT_HEADERFUNCTION, on_header);
  setopt(c, CURLOPT_HEADERDATA, &t);
  setopt(c, CURLOPT_NOPROGRESS, 0L);
  setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
  setopt(c, CURLOPT_XFERINFODATA, &t);
  setopt(c, CURLOPT_OPENSOCKETFUNCTION, on_open_socket);
  setopt(c, CURLOPT_OPENSOCKETDATA, &t);
}

Error transfer_error(CURLcode rc, const Transfer& t, const char* detail) {
  if (t.refused_address) return Error::PermissionDenied(std::string(kBlockedInternal));
  if (t.too_large) return Error::TooLarge("body over the size limit");
  if (t.bomb) return Error::TooLarge("body expands more than the decompression limit");
  if (rc == CURLE_ABORTED_BY_CALLBACK) return Error::Cancelled("Interrupted");
  if (rc == CURLE_OPERATION_TIMEDOUT) return Error::Timeout("timed out");
  return Error::Unavailable(*detail ? detail : t.curl->easy_strerror(rc));
}

}  // namespace

const std::string& user_agent() {
  static const std::string ua = "hermes-tools/" HERMES_VERSION " (+web_extract)";
  return ua;
}

Result<HttpResponse> perform(const HttpRequest& request, const HttpLimits& limits, const Pin* pin,
                             std::stop_token stop) {
  const CurlLibrary* curl = curl_library();
  if (!curl) return Error::Unavailable("libcurl cannot be loaded");
  auto* setopt = curl->easy_setopt;
  Easy c(curl->easy_init());
  if (!c) return Error::Internal("curl_easy_init failed");
  Transfer t{curl, c.get(), &limits, pin, stop, {}, 0, false, false, false};
  set_common(c.get(), limits, t);
  setopt(c.get(), CURLOPT_URL, request.url.c_str());
  if (request.proxy.empty()) {
    setopt(c.get(), CURLOPT_NOPROXY, "*");
  } else {
    setopt(c.get(), CURLOPT_PROXY, request.proxy.c_str());
    setopt(c.get(), CURLOPT_NOPROXY, "");
  }
  if (request.decompress) setopt(c.get(), CURLOPT_ACCEPT_ENCODING, "gzip, deflate");
  List headers, resolve;
  for (const std::string& h : request.headers) append(headers, h);
  setopt(c.get(), CURLOPT_HTTPHEADER, headers.get());
  if (request.method == "POST") {
    setopt(c.get(), CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
    setopt(c.get(), CURLOPT_POSTFIELDS, request.body.c_str());
  }
  // An IP literal needs no resolving, and curl cannot take an IPv6 literal
  // as CURLOPT_RESOLVE's host: the connect-time check alone holds it to the
  // vetted address.
  if (pin && !parse_ip(pin->host)) {
    append(resolve, resolve_entry(*pin));
    setopt(c.get(), CURLOPT_RESOLVE, resolve.get());
  }
  char detail[CURL_ERROR_SIZE] = {};
  setopt(c.get(), CURLOPT_ERRORBUFFER, detail);
  CURLcode rc = curl->easy_perform(c.get());
  if (rc != CURLE_OK) return transfer_error(rc, t, detail);
  curl->easy_getinfo(c.get(), CURLINFO_RESPONSE_CODE, &t.response.status);
  return std::move(t.response);
}

}  // namespace hermes::web
