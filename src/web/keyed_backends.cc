// SPDX-License-Identifier: MIT
#include "web/keyed_backends.h"

#include "core/strings.h"
#include "json/json.h"
#include "web/vendor_http.h"

#include <algorithm>

namespace hermes::web {
namespace {

constexpr const char* kJson = "Content-Type: application/json";

std::string base_or(const std::string& base, const char* fallback) {
  std::string out = base.empty() ? fallback : base;
  while (!out.empty() && out.back() == '/') out.pop_back();
  return out;
}

const Json& array_at(const Json& object, const char* key) {
  static const Json kEmpty = Json::array();
  if (!object.is_object()) return kEmpty;
  auto it = object.find(key);
  return it != object.end() && it->is_array() ? *it : kEmpty;
}

std::string joined(const Json& list, const char* sep) {
  std::string out;
  for (const Json& item : list.is_array() ? list : Json::array()) {
    if (!item.is_string()) continue;
    if (!out.empty()) out += sep;
    out += item.get<std::string>();
  }
  return out;
}

std::vector<ExtractRow> every_url_failed(const std::vector<std::string>& urls,
                                         const std::string& error) {
  std::vector<ExtractRow> rows;
  for (const std::string& u : urls) rows.push_back({u, u, "", "", error});
  return rows;
}

Json url_array(const std::vector<std::string>& urls) {
  Json out = Json::array();
  for (const std::string& u : urls) out.push_back(u);
  return out;
}

// ---- Tavily: the key travels in the JSON body.
constexpr const char* kTavilyNoKey =
    "TAVILY_API_KEY environment variable not set. Get your API key at https://app.tavily.com/home";

VendorCall tavily_call(const VendorConfig& c, const char* op, Json body) {
  body["api_key"] = c.key;
  return {"Tavily",  op,      base_or(c.base, "https://api.tavily.com") + "/" + op,
          "POST",    {kJson}, body.dump(),
          c.timeout, c.key};
}

class TavilySearch final : public SearchBackend {
 public:
  explicit TavilySearch(VendorConfig c) : c_(std::move(c)) {}
  Result<std::vector<SearchHit>> search(const std::string& q, int limit,
                                        std::stop_token stop) const override {
    if (c_.key.empty()) return Error::Unavailable(kTavilyNoKey);
    Json body = {{"query", q},
                 {"max_results", std::min(limit, 20)},
                 {"include_raw_content", false},
                 {"include_images", false}};
    HERMES_ASSIGN_OR_RETURN(Json reply, vendor_json(tavily_call(c_, "search", body), stop));
    std::vector<SearchHit> hits;
    for (const Json& r : array_at(reply, "results"))
      hits.push_back({text_field(r, "title"), text_field(r, "url"), text_field(r, "content")});
    return hits;
  }

 private:
  VendorConfig c_;
};

class TavilyExtract final : public ExtractBackend {
 public:
  explicit TavilyExtract(VendorConfig c) : c_(std::move(c)) {}
  Result<std::vector<ExtractRow>> extract(const std::vector<std::string>& urls,
                                          std::stop_token stop) const override {
    if (c_.key.empty()) return every_url_failed(urls, kTavilyNoKey);
    Json body = {{"urls", url_array(urls)}, {"include_images", false}};
    HERMES_ASSIGN_OR_RETURN(Json reply, vendor_json(tavily_call(c_, "extract", body), stop));
    std::vector<ExtractRow> rows;
    for (const Json& r : array_at(reply, "results")) {
      std::string content = text_field(r, "raw_content");
      if (content.empty()) content = text_field(r, "content");
      rows.push_back({"", text_field(r, "url"), text_field(r, "title"), content, ""});
    }
    for (const Json& r : array_at(reply, "failed_results")) {
      std::string error = text_field(r, "error");
      rows.push_back(
          {"", text_field(r, "url"), "", "", error.empty() ? "extraction failed" : error});
    }
    for (const Json& u : array_at(reply, "failed_urls"))
      if (u.is_string()) rows.push_back({"", u.get<std::string>(), "", "", "extraction failed"});
    return rows;
  }

 private:
  VendorConfig c_;
};

// ---- Exa
constexpr const char* kExaNoKey =
    "EXA_API_KEY environment variable not set. Get your API key at https://exa.ai";

VendorCall exa_call(const VendorConfig& c, const char* op, const char* path, const Json& body) {
  return {"Exa",
          op,
          base_or(c.base, "https://api.exa.ai") + path,
          "POST",
          {kJson, "x-api-key: " + c.key, "x-exa-integration: hermes-agent"},
          body.dump(),
          c.timeout,
          c.key};
}

class ExaSearch final : public SearchBackend {
 public:
  explicit ExaSearch(VendorConfig c) : c_(std::move(c)) {}
  Result<std::vector<SearchHit>> search(const std::string& q, int limit,
                                        std::stop_token stop) const override {
    if (c_.key.empty()) return Error::Unavailable(kExaNoKey);
    Json body = {{"query", q}, {"numResults", limit}, {"contents", {{"highlights", true}}}};
    HERMES_ASSIGN_OR_RETURN(Json reply, vendor_json(exa_call(c_, "search", "/search", body), stop));
    std::vector<SearchHit> hits;
    for (const Json& r : array_at(reply, "results"))
      hits.push_back({text_field(r, "title"), text_field(r, "url"),
                      joined(r.value("highlights", Json()), " ")});
    return hits;
  }

 private:
  VendorConfig c_;
};

class ExaExtract final : public ExtractBackend {
 public:
  explicit ExaExtract(VendorConfig c) : c_(std::move(c)) {}
  Result<std::vector<ExtractRow>> extract(const std::vector<std::string>& urls,
                                          std::stop_token stop) const override {
    if (c_.key.empty()) return every_url_failed(urls, kExaNoKey);
    Json body = {{"urls", url_array(urls)}, {"text", true}};
    HERMES_ASSIGN_OR_RETURN(Json reply,
                            vendor_json(exa_call(c_, "extract", "/contents", body), stop));
    std::vector<ExtractRow> rows;
    for (const Json& r : array_at(reply, "results"))
      rows.push_back({"", text_field(r, "url"), text_field(r, "title"), text_field(r, "text"), ""});
    for (const Json& s : array_at(reply, "statuses")) {  // per-URL failures
      if (text_field(s, "status") != "error") continue;
      const Json err = s.value("error", Json::object());
      std::string error = text_field(err, "tag");
      if (std::string code = text_field(err, "httpStatusCode"); !code.empty())
        error += " (HTTP " + code + ")";
      rows.push_back(
          {"", text_field(s, "id"), "", "", error.empty() ? "extraction failed" : error});
    }
    return rows;
  }

 private:
  VendorConfig c_;
};

// ---- Parallel
constexpr const char* kParallelNoKey =
    "PARALLEL_API_KEY environment variable not set. Get your API key at https://parallel.ai";

VendorCall parallel_call(const VendorConfig& c, const char* op, const char* path,
                         const Json& body) {
  return {"Parallel",
          op,
          base_or(c.base, "https://api.parallel.ai") + path,
          "POST",
          {kJson, "x-api-key: " + c.key, "parallel-beta: search-extract-2025-10-10"},
          body.dump(),
          c.timeout,
          c.key};
}

class ParallelSearch final : public SearchBackend {
 public:
  explicit ParallelSearch(VendorConfig c) : c_(std::move(c)) {}
  Result<std::vector<SearchHit>> search(const std::string& q, int limit,
                                        std::stop_token stop) const override {
    if (c_.key.empty()) return Error::Unavailable(kParallelNoKey);
    std::string mode = to_lower(c_.mode);
    if (mode != "agentic" && mode != "fast" && mode != "one-shot") mode = "agentic";
    Json body = {{"objective", q},
                 {"search_queries", {q}},
                 {"mode", mode},
                 {"max_results", std::min(limit, 20)}};
    HERMES_ASSIGN_OR_RETURN(Json reply,
                            vendor_json(parallel_call(c_, "search", "/v1beta/search", body), stop));
    std::vector<SearchHit> hits;
    for (const Json& r : array_at(reply, "results"))
      hits.push_back(
          {text_field(r, "title"), text_field(r, "url"), joined(r.value("excerpts", Json()), " ")});
    return hits;
  }

 private:
  VendorConfig c_;
};

class ParallelExtract final : public ExtractBackend {
 public:
  explicit ParallelExtract(VendorConfig c) : c_(std::move(c)) {}
  Result<std::vector<ExtractRow>> extract(const std::vector<std::string>& urls,
                                          std::stop_token stop) const override {
    if (c_.key.empty()) return every_url_failed(urls, kParallelNoKey);
    Json body = {{"urls", url_array(urls)}, {"full_content", true}};
    HERMES_ASSIGN_OR_RETURN(
        Json reply, vendor_json(parallel_call(c_, "extract", "/v1beta/extract", body), stop));
    std::vector<ExtractRow> rows;
    for (const Json& r : array_at(reply, "results")) {
      std::string content = text_field(r, "full_content");
      if (content.empty()) content = joined(r.value("excerpts", Json()), "\n\n");
      rows.push_back({"", text_field(r, "url"), text_field(r, "title"), content, ""});
    }
    for (const Json& e : array_at(reply, "errors")) {
      std::string error = text_field(e, "content");
      if (error.empty()) error = text_field(e, "error_type");
      rows.push_back(
          {"", text_field(e, "url"), "", "", error.empty() ? "extraction failed" : error});
    }
    return rows;
  }

 private:
  VendorConfig c_;
};

// ---- Firecrawl: cloud with a key, or a self-hosted base URL.
constexpr const char* kFirecrawlUnconfigured =
    "Web tools are not configured. Set FIRECRAWL_API_KEY for cloud Firecrawl or set "
    "FIRECRAWL_API_URL "
    "for a self-hosted Firecrawl instance.";

VendorCall firecrawl_call(const VendorConfig& c, const char* op, const char* path,
                          const Json& body) {
  VendorCall call{"Firecrawl", op,      base_or(c.base, "https://api.firecrawl.dev") + path,
                  "POST",      {kJson}, body.dump(),
                  c.timeout,   c.key};
  if (!c.key.empty()) call.headers.push_back("Authorization: Bearer " + c.key);
  return call;
}

const Json& firecrawl_rows(const Json& reply) {
  const Json& data = reply.contains("data") ? reply["data"] : reply;
  if (data.is_object() && data.contains("web") && data["web"].is_array()) return data["web"];
  if (data.is_array()) return data;
  if (data.is_object() && data.contains("results") && data["results"].is_array())
    return data["results"];
  if (reply.contains("web") && reply["web"].is_array()) return reply["web"];
  return array_at(reply, "results");
}

class FirecrawlSearch final : public SearchBackend {
 public:
  explicit FirecrawlSearch(VendorConfig c) : c_(std::move(c)) {}
  Result<std::vector<SearchHit>> search(const std::string& q, int limit,
                                        std::stop_token stop) const override {
    // Upstream raises here, so the tool answers with its exception envelope.
    if (c_.key.empty() && c_.base.empty())
      return Error::Io(std::string("Error searching web: ") + kFirecrawlUnconfigured);
    Json body = {{"query", q}, {"limit", limit}};
    HERMES_ASSIGN_OR_RETURN(Json reply,
                            vendor_json(firecrawl_call(c_, "search", "/v2/search", body), stop));
    std::vector<SearchHit> hits;
    for (const Json& r : firecrawl_rows(reply))
      hits.push_back({text_field(r, "title"), text_field(r, "url"), text_field(r, "description")});
    return hits;
  }

 private:
  VendorConfig c_;
};

class FirecrawlExtract final : public ExtractBackend {
 public:
  explicit FirecrawlExtract(VendorConfig c) : c_(std::move(c)) {}
  Result<std::vector<ExtractRow>> extract(const std::vector<std::string>& urls,
                                          std::stop_token stop) const override {
    if (c_.key.empty() && c_.base.empty()) return Error::Unavailable(kFirecrawlUnconfigured);
    std::vector<ExtractRow> rows;
    for (const std::string& u : urls) {  // one scrape per URL, in order
      if (stop.stop_requested()) return Error::Cancelled("Interrupted");
      rows.push_back(scrape(u, stop));
    }
    return rows;
  }

 private:
  ExtractRow scrape(const std::string& url, std::stop_token stop) const {
    Json body = {{"url", url}, {"formats", {"markdown"}}};
    auto reply = vendor_json(firecrawl_call(c_, "extract", "/v2/scrape", body), stop);
    if (!reply) {
      bool timeout = reply.error().code == ErrorCode::kTimeout;
      std::string after = std::to_string(c_.timeout.count());
      return {url, url, "", "",
              timeout ? "Scrape timed out after " + after +
                            "s — page may be too large or "
                            "unresponsive. Try browser_navigate instead."
                      : reply.error().message};
    }
    const Json& data =
        reply->contains("data") && (*reply)["data"].is_object() ? (*reply)["data"] : *reply;
    const Json meta = data.value("metadata", Json::object());
    std::string final_url = text_field(meta, "url");
    if (final_url.empty()) final_url = text_field(meta, "sourceURL");
    std::string content = text_field(data, "markdown");
    if (content.empty()) content = text_field(data, "html");
    return {url, final_url.empty() ? url : final_url, text_field(meta, "title"), content, ""};
  }

  VendorConfig c_;
};

}  // namespace

std::unique_ptr<SearchBackend> make_tavily_search(VendorConfig c) {
  return std::make_unique<TavilySearch>(std::move(c));
}
std::unique_ptr<ExtractBackend> make_tavily_extract(VendorConfig c) {
  return std::make_unique<TavilyExtract>(std::move(c));
}
std::unique_ptr<SearchBackend> make_exa_search(VendorConfig c) {
  return std::make_unique<ExaSearch>(std::move(c));
}
std::unique_ptr<ExtractBackend> make_exa_extract(VendorConfig c) {
  return std::make_unique<ExaExtract>(std::move(c));
}
std::unique_ptr<SearchBackend> make_parallel_search(VendorConfig c) {
  return std::make_unique<ParallelSearch>(std::move(c));
}
std::unique_ptr<ExtractBackend> make_parallel_extract(VendorConfig c) {
  return std::make_unique<ParallelExtract>(std::move(c));
}
std::unique_ptr<SearchBackend> make_firecrawl_search(VendorConfig c) {
  return std::make_unique<FirecrawlSearch>(std::move(c));
}
std::unique_ptr<ExtractBackend> make_firecrawl_extract(VendorConfig c) {
  return std::make_unique<FirecrawlExtract>(std::move(c));
}

}  // namespace hermes::web
