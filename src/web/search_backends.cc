// SPDX-License-Identifier: MIT
#include "web/search_backends.h"

#include "core/strings.h"
#include "json/json.h"
#include "web/ddg_results.h"
#include "web/url.h"
#include "web/vendor_http.h"

#include <algorithm>

namespace hermes::web {
namespace {

std::string strip_slash(std::string base) {
  while (!base.empty() && base.back() == '/') base.pop_back();
  return base;
}

// Any JSON scalar as text (SearXNG fields are stringified).
std::string as_text(const Json& row, const char* key) {
  auto it = row.find(key);
  if (it == row.end() || it->is_null()) return "";
  return it->is_string() ? it->get<std::string>() : it->dump();
}

double score_of(const Json& row) {
  auto it = row.find("score");
  if (it == row.end()) return 0;
  if (it->is_number()) return it->get<double>();
  if (it->is_string()) return std::strtod(it->get<std::string>().c_str(), nullptr);
  return 0;
}

class SearxngSearch final : public SearchBackend {
 public:
  SearxngSearch(std::string base, std::chrono::seconds timeout)
      : base_(strip_slash(std::move(base))), timeout_(timeout) {}

  Result<std::vector<SearchHit>> search(const std::string& query, int limit,
                                        std::stop_token stop) const override {
    if (base_.empty()) return Error::Unavailable("SEARXNG_URL is not set");
    VendorCall call{"SearXNG",
                    "search",
                    base_ + "/search?q=" + encode_component(query) + "&format=json&pageno=1",
                    "GET",
                    {"Accept: application/json"},
                    "",
                    timeout_,
                    ""};
    auto reply = vendor_exchange(call, stop);
    if (!reply) {
      if (reply.error().code == ErrorCode::kCancelled) return reply.error();
      return Error::Unavailable("Could not reach SearXNG at " + base_ + ": " +
                                reply.error().message);
    }
    if (reply->status != 200)
      return Error::Unavailable("SearXNG returned HTTP " + std::to_string(reply->status));
    auto reply_json = parse_vendor_json(reply->body);
    if (!reply_json || !reply_json->is_object())
      return Error::Unavailable("Could not parse SearXNG response as JSON");
    const Json& parsed = *reply_json;
    auto results = parsed.find("results");
    if (results != parsed.end() && !results->is_array())
      return Error::Unavailable("Could not parse SearXNG response as JSON");
    std::vector<Json> rows;
    if (results != parsed.end())
      for (const Json& r : *results)
        if (r.is_object()) rows.push_back(r);
    std::stable_sort(rows.begin(), rows.end(),
                     [](const Json& a, const Json& b) { return score_of(a) > score_of(b); });
    std::vector<SearchHit> hits;
    for (const Json& r : rows) {
      if (static_cast<int>(hits.size()) >= limit) break;
      hits.push_back({as_text(r, "title"), as_text(r, "url"), as_text(r, "content")});
    }
    return hits;
  }

 private:
  std::string base_;
  std::chrono::seconds timeout_;
};

class BraveSearch final : public SearchBackend {
 public:
  BraveSearch(std::string key, std::string base, std::chrono::seconds timeout)
      : key_(std::move(key)), base_(strip_slash(std::move(base))), timeout_(timeout) {}

  Result<std::vector<SearchHit>> search(const std::string& query, int limit,
                                        std::stop_token stop) const override {
    if (key_.empty()) return Error::Unavailable("BRAVE_SEARCH_API_KEY is not set");
    int count = std::clamp(limit, 1, 20);
    VendorCall call{"Brave Search",
                    "search",
                    base_ + "/res/v1/web/search?q=" + encode_component(query) +
                        "&count=" + std::to_string(count),
                    "GET",
                    {"X-Subscription-Token: " + key_, "Accept: application/json"},
                    "",
                    timeout_,
                    key_};
    auto reply = vendor_exchange(call, stop);
    if (!reply) {
      if (reply.error().code == ErrorCode::kCancelled) return reply.error();
      return Error::Unavailable(
          scrub("Could not reach Brave Search: " + reply.error().message, key_));
    }
    if (reply->status != 200)
      return Error::Unavailable("Brave Search returned HTTP " + std::to_string(reply->status));
    auto reply_json = parse_vendor_json(reply->body);
    if (!reply_json || !reply_json->is_object())
      return Error::Unavailable("Could not parse Brave Search response as JSON");
    const Json& parsed = *reply_json;
    std::vector<SearchHit> hits;
    const Json web = parsed.value("web", Json::object());
    const Json results = web.is_object() ? web.value("results", Json::array()) : Json::array();
    for (const Json& r : results) {
      if (!r.is_object() || static_cast<int>(hits.size()) >= count) continue;
      hits.push_back({text_field(r, "title"), text_field(r, "url"), text_field(r, "description")});
    }
    return hits;
  }

 private:
  std::string key_;
  std::string base_;
  std::chrono::seconds timeout_;
};

constexpr const char* kDdgThrottled =
    "DuckDuckGo search failed: rate limited (HTTP 202 challenge) — try again later, set "
    "SEARXNG_URL, "
    "or configure a keyed backend.";

class DdgSearch final : public SearchBackend {
 public:
  DdgSearch(std::string base, std::chrono::seconds timeout)
      : base_(strip_slash(std::move(base))), timeout_(timeout) {}

  Result<std::vector<SearchHit>> search(const std::string& query, int limit,
                                        std::stop_token stop) const override {
    // The exchange and the parse of its page share the request's time.
    auto deadline = std::chrono::steady_clock::now() + timeout_;
    VendorCall call{"DuckDuckGo",
                    "search",
                    base_ + "/html/",
                    "POST",
                    {"Content-Type: application/x-www-form-urlencoded", "Accept: text/html"},
                    "q=" + encode_component(query) + "&kl=wt-wt",
                    timeout_,
                    ""};
    auto reply = vendor_exchange(call, stop);
    if (!reply) return failure(reply.error());
    if (reply->status == 202) return Error::Unavailable(kDdgThrottled);
    if (reply->status != 200)
      return Error::Unavailable("DuckDuckGo search failed: HTTP " + std::to_string(reply->status));
    auto hits = parse_ddg_html_isolated(reply->body, limit, deadline, stop);
    if (!hits)
      return failure(
          {hits.error().code, "could not parse the results page (" + hits.error().message + ")"});
    if (hits->empty() && reply->body.find("anomaly-modal") != std::string::npos)
      return Error::Unavailable(kDdgThrottled);
    return hits;
  }

 private:
  // The contract's texts for an exchange or parse that failed.
  Error failure(const Error& error) const {
    if (error.code == ErrorCode::kCancelled)
      return Error::Cancelled("DuckDuckGo search interrupted");
    if (error.code == ErrorCode::kTimeout)
      return Error::Timeout(
          "DuckDuckGo search timed out after " + std::to_string(timeout_.count()) +
          "s — DuckDuckGo may be rate-limiting or slow. Try again later or switch to a "
          "different search provider.");
    return Error::Unavailable("DuckDuckGo search failed: " + error.message);
  }

  std::string base_;
  std::chrono::seconds timeout_;
};

}  // namespace

std::unique_ptr<SearchBackend> make_searxng(std::string base, std::chrono::seconds timeout) {
  return std::make_unique<SearxngSearch>(std::move(base), timeout);
}
std::unique_ptr<SearchBackend> make_ddg(std::string base, std::chrono::seconds timeout) {
  return std::make_unique<DdgSearch>(base.empty() ? "https://html.duckduckgo.com" : std::move(base),
                                     timeout);
}
std::unique_ptr<SearchBackend> make_brave(std::string key, std::string base,
                                          std::chrono::seconds timeout) {
  return std::make_unique<BraveSearch>(
      std::move(key), base.empty() ? "https://api.search.brave.com" : std::move(base), timeout);
}

}  // namespace hermes::web
