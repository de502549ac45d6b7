// SPDX-License-Identifier: MIT
// web_search and web_extract end to end against the loopback fixture: the
// real fetcher, converter and vendor clients, fake vendors and pages.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "web_harness.h"

namespace hermes::web::testing {
namespace {

std::string fx(const std::string& path) { return fixture().url(path); }

std::string search_env(const std::string& name, const std::string& path) {
  return name + "=" + fx(path) + "\n";
}

// Names a fake vendor "fetches": they resolve to a public address that
// nothing here ever dials (the vendor fake answers for them).
void public_names(WebHarness& h) {
  for (const char* name : {"a.example", "b.example", "c.example", "ok.example", "x.example",
                           "sub.blocked.example", "wild.example", "a.wild.example"})
    h.resolver->set(name, {"93.184.216.34"});
}

TEST(WebTools, SchemasAreTheContractsAndKeylessSetupHasBoth) {
  WebHarness h;
  const registry::ToolSpec* search = h.registry().find("web_search", h.services());
  const registry::ToolSpec* extract = h.registry().find("web_extract", h.services());
  ASSERT_TRUE(search && extract);
  EXPECT_EQ(
      search->input_schema["properties"]["limit"],
      Json::parse(
          R"({"type": "integer", "description": "Maximum number of results to return. Defaults to 5.", "minimum": 1, "maximum": 100, "default": 5})"));
  EXPECT_EQ(extract->input_schema["properties"]["urls"]["maxItems"], 5);
  EXPECT_EQ(extract->input_schema["properties"]["char_limit"]["minimum"], 2000);
  EXPECT_EQ(search->toolset, "web");
  WebHarness off("web:\n  extract_backend: 'off'\n");
  EXPECT_EQ(off.registry().find("web_extract", off.services()), nullptr);
  EXPECT_NE(off.registry().find("web_search", off.services()), nullptr);
}

TEST(WebSearch, DuckDuckGoByDefault) {
  WebHarness h;
  Json out = h.search("python 3.13 features");
  ASSERT_EQ(out["success"], true) << out;
  Json rows = out["data"]["web"];
  ASSERT_EQ(rows.size(), 2u) << out;
  EXPECT_EQ(rows[0].dump(), Json({{"title", "What's New In Python 3.13"},
                                  {"url", "https://docs.python.org/3/whatsnew/3.13.html"},
                                  {"description", "The features of 3.13."},
                                  {"position", 1}})
                                .dump());
  EXPECT_EQ(rows[1]["position"], 2);
  EXPECT_EQ(h.search("throttle")["error"],
            "DuckDuckGo search failed: rate limited (HTTP 202 challenge) — try again later, set "
            "SEARXNG_URL, "
            "or configure a keyed backend.");
  EXPECT_EQ(h.search("anomaly")["success"], false);
  EXPECT_EQ(h.search("  ")["error"], "query must be a non-empty string");
}

// Results, then 200,000 nested <div>s: Gumbo's tree builder is quadratic in
// nesting depth (minutes of CPU), so the page is parsed in a child within
// the request's time, and a cancelled call ends the child.
TEST(WebSearch, DuckDuckGoPageParsedWithinDeadlineAndCancellable) {
  WebHarness h("web:\n  ddgs:\n    timeout: 2\n");
  EXPECT_EQ(h.search("nested")["error"],
            "DuckDuckGo search timed out after 2s — DuckDuckGo may be rate-limiting or slow. Try "
            "again later or switch to a different search provider.");
  WebHarness patient("web:\n  ddgs:\n    timeout: 300\n");
  std::stop_source stop;
  std::jthread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    stop.request_stop();
  });
  Json out = patient.call("web_search", {{"query", "nested again"}}, stop.get_token());
  EXPECT_EQ(out["error"], "Interrupted") << out;
  EXPECT_EQ(h.search("python")["data"]["web"].size(), 2u) << "the parse still finds results";
}

TEST(WebSearch, SearxngWhenConfiguredSortedByScore) {
  WebHarness h("", search_env("SEARXNG_URL", "/searxng/"));
  Json out = h.search("q", {{"limit", "abc"}});
  ASSERT_EQ(out["data"]["web"].size(), 5u) << out;
  EXPECT_EQ(out["data"]["web"][0]["title"], "r title 11");
  EXPECT_EQ(h.search("status:403")["error"], "SearXNG returned HTTP 403");
  EXPECT_EQ(h.search("badjson")["error"], "Could not parse SearXNG response as JSON");
  EXPECT_EQ(h.search("x", {{"limit", 0}})["data"]["web"].size(), 1u);
}

TEST(WebSearch, LimitIsClampedAndBucketed) {
  WebHarness h("",
               "EXA_API_KEY=exa-secret-key\n" + search_env("HERMES_TOOLS_EXA_BASE_URL", "/exa"));
  size_t before = fixture().requests();
  Json out = h.search("limits", {{"limit", 500}});
  ASSERT_EQ(out["data"]["web"].size(), 100u) << out.dump().substr(0, 300);
  Json last = fixture().log()[before];
  EXPECT_EQ(Json::parse(last["body"].get<std::string>())["numResults"], 100);
  EXPECT_EQ(last["headers"]["x-api-key"], "exa-secret-key");
  EXPECT_EQ(out["data"]["web"][0]["description"], "a b");
}

TEST(WebSearch, VendorErrorsMappedWithoutTheKey) {
  WebHarness h("", "TAVILY_API_KEY=tvly-secret-0123\n" + search_env("TAVILY_BASE_URL", "/tavily"));
  EXPECT_EQ(h.search("status:401")["error"], "Tavily search failed: HTTP 401: vendor says 401");
  EXPECT_EQ(h.search("status:402")["error"], "Tavily search failed: HTTP 402: vendor says 402");
  EXPECT_EQ(h.search("status:429")["error"], "Tavily search failed: HTTP 429: vendor says 429");
  EXPECT_EQ(h.search("status:503")["error"], "Tavily search failed: HTTP 503: vendor says 503");
  EXPECT_EQ(h.search("badjson")["error"], "Tavily search failed: invalid JSON response");
  for (const char* q : {"status:401", "badjson"})
    EXPECT_EQ(h.search(q).dump().find("tvly-secret"), std::string::npos);
  Json ok = h.search("fine", {{"limit", 3}});
  EXPECT_EQ(ok["data"]["web"].size(), 3u) << ok;
}

TEST(WebSearch, MissingKeysAndStrictSelection) {
  EXPECT_EQ(WebHarness("web:\n  search_backend: tavily\n").search("q")["error"],
            "TAVILY_API_KEY environment variable not set. Get your API key at "
            "https://app.tavily.com/home");
  EXPECT_EQ(WebHarness("web:\n  search_backend: exa\n").search("q")["error"],
            "EXA_API_KEY environment variable not set. Get your API key at https://exa.ai");
  EXPECT_EQ(
      WebHarness("web:\n  search_backend: parallel\n").search("q")["error"],
      "PARALLEL_API_KEY environment variable not set. Get your API key at https://parallel.ai");
  EXPECT_EQ(WebHarness("web:\n  search_backend: brave-free\n").search("q")["error"],
            "BRAVE_SEARCH_API_KEY is not set");
  EXPECT_EQ(WebHarness("web:\n  search_backend: searxng\n").search("q")["error"],
            "SEARXNG_URL is not set");
  EXPECT_EQ(WebHarness("web:\n  backend: xai\n").search("q")["error"],
            "xai is not supported by hermes-tools.");
  EXPECT_EQ(WebHarness("web:\n  backend: Bing\n").search("q")["error"],
            "Unknown web backend 'bing'. Known: brave-free, ddgs, exa, firecrawl, native, "
            "parallel, searxng, tavily.");
  for (const char* name : {"searxng", "brave-free", "ddgs"}) {
    WebHarness h("web:\n  extract_backend: " + std::string(name) + "\n");
    Json out = h.extract(Json::array({fx("/page.html")}));
    EXPECT_EQ(out["success"], false);
    EXPECT_NE(out["error"].get<std::string>().find(
                  "is a search-only backend and cannot extract URL content."),
              std::string::npos)
        << out;
  }
}

TEST(WebSearch, MemoSharesVariantsAndSkipsFailures) {
  WebHarness h("", search_env("SEARXNG_URL", "/searxng"));
  size_t before = fixture().requests();
  h.search("Cache  Me");
  h.search("cache me", {{"limit", 3}});
  EXPECT_EQ(fixture().requests() - before, 1u);
  h.search("status:500");
  h.search("status:500");
  EXPECT_EQ(fixture().requests() - before, 3u);
  WebHarness off("web:\n  cache_enabled: false\n", search_env("SEARXNG_URL", "/searxng"));
  before = fixture().requests();
  off.search("again");
  off.search("again");
  EXPECT_EQ(fixture().requests() - before, 2u);
}

TEST(WebExtract, NativePageToMarkdown) {
  WebHarness h;
  Json row = h.page(fx("/page.html"));
  EXPECT_EQ(row["title"], "Fixture Page");
  EXPECT_EQ(row["content"], "# Hello\n\nSee [other](" + fx("/other") + ").\n\n- one\n- two");
  EXPECT_TRUE(row["error"].is_null());
  EXPECT_EQ(h.page(fx("/gzip.html"))["title"], "Fixture Page");
  EXPECT_EQ(h.page(fx("/latin1.html"))["content"], "café “q”");
  EXPECT_EQ(h.page(fx("/sjis.html"))["content"], "日本語");
  EXPECT_EQ(h.page(fx("/nocharset.html"))["content"], "naïve");
  EXPECT_EQ(h.page(fx("/plain.txt"))["content"], "just text\n");
  EXPECT_EQ(h.page(fx("/octet.html"))["content"], "sniffed html");
}

TEST(WebExtract, PdfThroughPdftotext) {
  WebHarness h;
  Json row = h.page(fx("/doc.pdf"));
  EXPECT_NE(row["content"].get<std::string>().find("Hello from the PDF"), std::string::npos) << row;
  EXPECT_EQ(row["title"], "Fixture PDF");
  EXPECT_NE(h.page(fx("/octet.pdf"))["content"].get<std::string>().find("Sniffed PDF"),
            std::string::npos);
}

TEST(WebExtract, BinaryPayloadsRefused) {
  WebHarness h;
  auto error = [&](const char* path) { return h.page(fx(path))["error"].get<std::string>(); };
  EXPECT_EQ(error("/file.zip"),
            "URL returned binary content (ZIP archive), not a page. Download it with the terminal "
            "(curl -L -o) and use read_file (SQLite/Office/PDF auto-extract) or terminal "
            "utilities on the file.");
  EXPECT_NE(error("/image.png").find("(PNG image data)"), std::string::npos);
  EXPECT_NE(error("/db.sqlite").find("(SQLite database)"), std::string::npos);
  EXPECT_NE(error("/prog.elf").find("(ELF executable)"), std::string::npos);
  EXPECT_NE(error("/blob").find("(application/x-unknown)"), std::string::npos);
}

TEST(WebExtract, Limits) {
  WebHarness h("web:\n  native:\n    timeout: 2\n");
  EXPECT_EQ(h.page(fx("/huge"))["error"], "Response too large (over 10 MiB)");
  EXPECT_EQ(h.page(fx("/bomb"))["error"], "Response too large (over 10 MiB)");
  EXPECT_EQ(h.page(fx("/slow"))["error"], "Timed out after 2s fetching " + fx("/slow"));
  EXPECT_EQ(h.page(fx("/status/404"))["error"], "HTTP 404 fetching " + fx("/status/404"));
  EXPECT_EQ(h.page(fx("/status/403"))["error"],
            "HTTP 403 fetching " + fx("/status/403") +
                " — the site may block automated clients; try the browser tool");
}

TEST(WebExtract, CancelStopsATransferMidBody) {
  WebHarness h;
  std::stop_source stop;
  std::jthread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    stop.request_stop();
  });
  auto start = std::chrono::steady_clock::now();
  Json out = h.call("web_extract", {{"urls", {fx("/slow")}}}, stop.get_token());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
  EXPECT_EQ(out, Json({{"error", "Interrupted"}, {"success", false}}));
}

TEST(WebExtract, RedirectsFollowedAndEveryHopVetted) {
  WebHarness h;
  EXPECT_EQ(h.page(fx("/chain/3"))["url"], fx("/page.html"));
  EXPECT_EQ(h.page(fx("/chain/11"))["error"], "Too many redirects (max 10)");
  std::string meta = "http://169.254.169.254/latest/meta-data/";
  Json hop = h.page(fx("/redirect?to=" + meta));
  EXPECT_EQ(hop["error"], "Blocked: URL targets a private or internal network address");
  EXPECT_EQ(hop["url"], meta);
  size_t seen = sentinel().requests();
  Json loop = h.page(fx("/redirect?code=307&to=") + sentinel().url("/page.html"));
  EXPECT_EQ(loop["error"], "Blocked: URL targets a private or internal network address");
  EXPECT_EQ(sentinel().requests(), seen) << "nothing may reach a blocked address";
}

TEST(WebExtract, BlockedAddressesNeverContacted) {
  WebHarness h;
  h.resolver->set("mixed.test", {"127.0.0.1", "10.0.0.1"});
  h.resolver->set("meta.test", {"169.254.169.254"});
  size_t seen = sentinel().requests();
  for (const std::string& u :
       {std::string("http://10.0.0.5/"),
        std::string("http://[::1]:") + std::to_string(sentinel().port()) + "/",
        sentinel().url("/page.html"),
        "http://[::ffff:127.0.0.1]:" + std::to_string(sentinel().port()) + "/",
        "http://mixed.test:" + std::to_string(fixture().port()) + "/page.html",
        std::string("http://meta.test/"), std::string("http://metadata.google.internal/"),
        std::string("http://nowhere.test/")})
    EXPECT_EQ(h.page(u)["error"], "Blocked: URL targets a private or internal network address")
        << u;
  for (const std::string& u :
       {std::string("ftp://example.com/"), std::string("file:///etc/passwd")})
    EXPECT_EQ(h.page(u)["error"], "Blocked: only http and https URLs can be fetched") << u;
  EXPECT_EQ(sentinel().requests(), seen);
}

TEST(WebExtract, Ipv6LiteralsAreFetched) {
  FixtureServer v6("::1");
  ASSERT_NE(v6.port(), 0);
  WebHarness listed;
  listed.start_service(nullptr, v6.allow_entry());
  Json row = listed.page(v6.url("/page.html"));
  EXPECT_EQ(row["title"], "Fixture Page") << row;
  EXPECT_TRUE(row["error"].is_null()) << row;
  WebHarness open("security:\n  allow_private_urls: true\n");
  EXPECT_EQ(open.page(v6.url("/page.html"))["title"], "Fixture Page");
}

TEST(WebExtract, MetadataRefusedWithPrivateAllowed) {
  WebHarness h("security:\n  allow_private_urls: true\nweb:\n  native:\n    timeout: 2\n");
  h.resolver->set("gcp-meta.test", {"fd20:ce::254"});
  h.resolver->set("oci-meta.test", {"fd00:c1::a9fe:a9fe"});
  for (std::string meta :
       {"http://[fd20:ce::254]/computeMetadata/v1/", "http://[fd00:c1::a9fe:a9fe]/opc/v2/instance/",
        "http://gcp-meta.test/computeMetadata/v1/", "http://oci-meta.test/opc/v2/instance/"}) {
    EXPECT_EQ(h.page(meta)["error"], "Blocked: URL targets a private or internal network address")
        << meta;
    Json hop = h.page(fx("/redirect?to=" + meta));
    EXPECT_EQ(hop["error"], "Blocked: URL targets a private or internal network address") << meta;
    EXPECT_EQ(hop["url"], meta);
  }
}

TEST(WebExtract, PinnedAddressDefeatsRebinding) {
  WebHarness h;
  // Vetted twice (pre-check, fetch hop) as loopback-fixture, then the name
  // would point into private space: curl must never ask.
  h.resolver->set("rebind.test", {"127.0.0.1"});
  h.resolver->then("rebind.test", {"127.0.0.1"});
  h.resolver->then("rebind.test", {"10.0.0.1"});
  std::string url = "http://rebind.test:" + std::to_string(fixture().port()) + "/page.html";
  Json row = h.page(url);
  EXPECT_EQ(row["title"], "Fixture Page") << row;
  EXPECT_EQ(h.resolver->calls_for("rebind.test"), 2);
  EXPECT_EQ(fixture().log().back()["headers"]["Host"],
            "rebind.test:" + std::to_string(fixture().port()));
}

TEST(WebExtract, SecretsRefuseTheWholeCall) {
  WebHarness h;
  std::string token = "ghp_" + std::string(36, 'A');
  Json out = h.extract(Json::array({fx("/page.html"), "https://example.com/" + token}));
  EXPECT_EQ(out, Json({{"success", false},
                       {"error",
                        "Blocked: URL contains what appears to be an API key or token. "
                        "Secrets must not be sent in URLs."}}));
  EXPECT_EQ(
      h.extract(Json::array({"https://example.com/%67hp_" + std::string(36, 'B')}))["success"],
      false);
  Json param = h.extract(Json::array({"https://example.com/?API_Key=abc"}));
  EXPECT_NE(param["error"].get<std::string>().find("credential-like query parameter (API_Key)"),
            std::string::npos);
  Json blank = h.extract(Json::array({"http://10.1.1.1/?token="}));
  EXPECT_TRUE(blank.contains("results")) << blank;
}

TEST(WebExtract, InputOrderWithMixedEntries) {
  WebHarness h;
  Json out = h.extract(
      Json::array({fx("/plain.txt"), 42, "http://10.0.0.1/", Json{{"href", fx("/page.html")}},
                   fx("/status/500"), fx("/x1"), fx("/x2")}));
  ASSERT_EQ(out["results"].size(), 5u) << out;
  EXPECT_EQ(out["results"][0]["content"], "just text\n");
  EXPECT_EQ(out["results"][1]["error"],
            "Invalid URL item at index 1: expected a URL string or an object with a "
            "string 'url' or 'href' field");
  EXPECT_EQ(out["results"][2]["error"],
            "Blocked: URL targets a private or internal network address");
  EXPECT_EQ(out["results"][3]["title"], "Fixture Page");
  EXPECT_EQ(out["results"][4]["error"], "HTTP 500 fetching " + fx("/status/500"));
  EXPECT_EQ(out["_warning"],
            "Only the first 5 URLs were extracted (7 given); call again for the rest.");
  EXPECT_EQ(h.extract(fx("/plain.txt"))["results"][0]["content"], "just text\n");
  EXPECT_EQ(h.extract(Json::array()), Json({{"error", "Content was inaccessible or not found"}}));
  EXPECT_EQ(h.call("web_extract", Json::object()),
            Json({{"success", false}, {"error", "urls must be a list of URL strings"}}));
}

TEST(WebExtract, VendorRowsMatchedByUrlNotPosition) {
  WebHarness tavily("", "TAVILY_API_KEY=tvly-k\n" + search_env("TAVILY_BASE_URL", "/tavily"));
  public_names(tavily);
  Json out = tavily.extract(Json::array(
      {"https://a.example/fail", "https://b.example/", "http://10.0.0.2/", "https://c.example/"}));
  ASSERT_EQ(out["results"].size(), 4u) << out;
  EXPECT_EQ(out["results"][0]["error"], "could not fetch");
  EXPECT_EQ(out["results"][1]["content"], "content of https://b.example/");
  EXPECT_EQ(out["results"][3]["content"], "content of https://c.example/");
  WebHarness exa("", "EXA_API_KEY=exa-k\n" + search_env("HERMES_TOOLS_EXA_BASE_URL", "/exa"));
  public_names(exa);
  out = exa.extract(Json::array({"https://a.example/drop", "https://b.example/"}));
  EXPECT_EQ(out["results"][0]["error"], "CRAWL_NOT_FOUND (HTTP 404)");
  EXPECT_EQ(out["results"][1]["content"], "exa text of https://b.example/");
}

TEST(WebExtract, FirecrawlFinalUrlIsVettedAgain) {
  WebHarness h("web:\n  extract_backend: firecrawl\n",
               search_env("FIRECRAWL_API_URL", "/firecrawl"));
  public_names(h);
  Json out = h.extract(Json::array({"https://ok.example/", "https://x.example/tometadata"}));
  EXPECT_EQ(out["results"][0]["content"], "# Scraped\n\nhttps://ok.example/");
  EXPECT_EQ(out["results"][1]["error"],
            "Blocked: URL targets a private or internal network address");
}

TEST(WebExtract, WebsitePolicyForEveryBackend) {
  std::string yaml =
      "security:\n  website_blocklist:\n    enabled: true\n    domains: [www.blocked.example, "
      "'*.wild.example']\n";
  WebHarness h(yaml, "TAVILY_API_KEY=tvly-k\n" + search_env("TAVILY_BASE_URL", "/tavily"));
  public_names(h);
  Json out = h.extract(Json::array(
      {"https://sub.blocked.example/", "https://wild.example/", "https://a.wild.example/"}));
  EXPECT_EQ(out["results"][0]["error"],
            "Blocked by website policy: 'sub.blocked.example' matched rule 'blocked.example' from "
            "config");
  EXPECT_EQ(
      out["results"][0]["blocked_by_policy"],
      Json({{"host", "sub.blocked.example"}, {"rule", "blocked.example"}, {"source", "config"}}));
  EXPECT_TRUE(out["results"][1]["error"].is_null());
  EXPECT_EQ(out["results"][2]["blocked_by_policy"]["rule"], "*.wild.example");
}

TEST(WebExtract, LongPagesTruncatedAndStored) {
  WebHarness h;
  Json row = h.page(fx("/long.html"), {{"char_limit", 1999}});
  std::string content = row["content"];
  EXPECT_NE(content.find("\n\n[... middle omitted — see footer ...]\n\n"), std::string::npos);
  size_t saved = content.find("Full text saved to: ");
  ASSERT_NE(saved, std::string::npos) << content;
  std::string path = content.substr(saved + 20, content.find('\n', saved) - saved - 20);
  EXPECT_EQ(path.rfind(h.home().path() + "/cache/web/127.0.0.1_", 0), 0u) << path;
  std::ifstream in(path);
  std::stringstream stored;
  stored << in.rdbuf();
  EXPECT_NE(stored.str().find("Line 2999 of a long page"), std::string::npos);
  EXPECT_NE(content.find("read_file path=\"" + path + "\" offset="), std::string::npos);
  EXPECT_TRUE(
      content.ends_with("(the file is the complete page; raise/lower offset to page through it).\n"
                        "─────────────────────────────"));
}

TEST(WebExtract, ResultStaysUnderTheCap) {
  WebHarness h;
  Json urls = Json::array();
  for (int i = 0; i < 5; ++i) urls.push_back(fx("/long.html?n=" + std::to_string(i)));
  Json out = h.extract(urls, {{"char_limit", 1000000}});
  EXPECT_LT(dump_json(out).size(), 100000u);
  EXPECT_EQ(out["_hint"],
            "Per-page budget reduced to 18000 chars to fit the 100,000-char result limit; extract "
            "fewer URLs per call for more text.");
}

// The two web scripts of the execute_code documentation, as written there,
// against the DuckDuckGo fake whose results are the fixture's own article
// pages (so every extract is a real fetch and conversion). The first
// script's placeholder comment (`# ... filter and process ...`) is the one
// line filled in: it leaves `summary` undefined.
TEST(WebExtract, SeedExamplesRunThroughExecuteCode) {
  WebHarness h("", search_env("HERMES_TOOLS_DDG_BASE_URL", "/ddg/local"));
  size_t before = fixture().requests();
  Json first = h.run(R"(from hermes_tools import web_search, web_extract
results = web_search("Python 3.13 features", limit=5)
for r in results["data"]["web"]:
    content = web_extract([r["url"]])
    summary = [p["content"].splitlines()[0] for p in content["results"]]
print(summary)
)");
  EXPECT_EQ(first["status"], "success") << first;
  EXPECT_EQ(first["output"], "['# Comparing Rust async runtimes in 2025']\n") << first;
  Json second = h.run(R"(from hermes_tools import web_search, web_extract
import json

# Search, extract, and summarize in one turn
results = web_search("Rust async runtime comparison 2025", limit=5)
summaries = []
for r in results["data"]["web"]:
    page = web_extract([r["url"]])
    for p in page.get("results", []):
        if p.get("content"):
            summaries.append({
                "title": r["title"],
                "url": r["url"],
                "excerpt": p["content"][:500]
            })
print(json.dumps(summaries, indent=2))
)");
  ASSERT_EQ(second["status"], "success") << second;
  Json summaries = Json::parse(second["output"].get<std::string>());
  ASSERT_EQ(summaries.size(), 2u) << second;
  EXPECT_EQ(summaries[0]["title"], "Comparing Rust async runtimes in 2025");
  EXPECT_EQ(summaries[0]["url"], fx("/articles/rust-async.html"));
  std::string rust = summaries[0]["excerpt"];
  EXPECT_EQ(rust.rfind("# Comparing Rust async runtimes in 2025\n\nMar 14, 2025", 0), 0u) << rust;
  EXPECT_NE(rust.find("[Tokio](https://tokio.rs/)"), std::string::npos) << rust;
  EXPECT_EQ(summaries[1]["url"], fx("/articles/python313.html"));
  EXPECT_NE(summaries[1]["excerpt"].get<std::string>().find("Python 3.13 was released"),
            std::string::npos)
      << summaries[1];
  // Four searches and extracts, all served here; the ad was never fetched.
  size_t articles = 0;
  for (const Json& request : fixture().log())
    if (request["path"].get<std::string>().rfind("/articles/", 0) == 0) ++articles;
  EXPECT_EQ(articles, 4u);
  EXPECT_GE(fixture().requests() - before, 6u);
}

}  // namespace
}  // namespace hermes::web::testing
