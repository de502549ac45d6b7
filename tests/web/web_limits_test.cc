// SPDX-License-Identifier: MIT
// The configurable limits of the web tools: vendor timeouts, the time cap
// of one web_extract call, per-host concurrency, and the proxy switch.
#include "testutil/scoped_env.h"

#include <gtest/gtest.h>

#include <chrono>

#include "web_harness.h"

namespace hermes::web::testing {
namespace {

using std::chrono::steady_clock;

std::string fx(const std::string& path) { return fixture().url(path); }

std::string base_env(const std::string& name, const std::string& path) {
  return name + "=" + fx(path) + "\n";
}

double seconds_since(steady_clock::time_point start) {
  return std::chrono::duration<double>(steady_clock::now() - start).count();
}

TEST(WebLimits, VendorTimeoutsAreConfigurable) {
  WebHarness tavily("web:\n  tavily:\n    timeout: 1\n",
                    "TAVILY_API_KEY=tvly-k\n" + base_env("TAVILY_BASE_URL", "/tavily"));
  auto start = steady_clock::now();
  EXPECT_EQ(tavily.search("slow")["error"], "Tavily search failed: timed out after 1s");
  EXPECT_LT(seconds_since(start), 4.0);
  WebHarness ddg("web:\n  ddgs:\n    timeout: 1\n");
  EXPECT_EQ(ddg.search("slow")["error"],
            "DuckDuckGo search timed out after 1s — DuckDuckGo may be rate-limiting or slow. Try "
            "again later or "
            "switch to a different search provider.");
  WebHarness searxng("web:\n  searxng:\n    timeout: 1\n", base_env("SEARXNG_URL", "/searxng"));
  EXPECT_EQ(
      searxng.search("slow")["error"].get<std::string>().rfind("Could not reach SearXNG at ", 0),
      0u);
  WebHarness firecrawl("web:\n  extract_backend: firecrawl\n  firecrawl:\n    timeout: 1\n",
                       base_env("FIRECRAWL_API_URL", "/firecrawl"));
  firecrawl.resolver->set("ok.example", {"93.184.216.34"});
  EXPECT_EQ(firecrawl.page("https://ok.example/slow")["error"],
            "Scrape timed out after 1s — page may be too large or unresponsive. Try "
            "browser_navigate instead.");
}

TEST(WebLimits, OneCallIsCappedAsAWhole) {
  // Three slow pages of one host: two at a time, 2 s each, the call 3 s.
  WebHarness h("web:\n  native:\n    timeout: 2\n    call_timeout: 3\n");
  auto start = steady_clock::now();
  Json out = h.extract(Json::array({fx("/slow?a"), fx("/slow?b"), fx("/slow?c")}));
  double took = seconds_since(start);
  ASSERT_EQ(out["results"].size(), 3u) << out;
  int per_url = 0, per_call = 0;
  for (const Json& row : out["results"]) {
    std::string error = row["error"];
    if (error == "Timed out after 2s fetching " + row["url"].get<std::string>()) ++per_url;
    if (error == "Timed out after 3s fetching " + row["url"].get<std::string>() +
                     " (the time limit of one web_extract call)")
      ++per_call;
  }
  EXPECT_EQ(per_url, 2) << out;
  EXPECT_EQ(per_call, 1) << out;
  EXPECT_GT(took, 2.8) << "the third page waited for a slot: at most 2 per host";
  EXPECT_LT(took, 3.9);
}

// A page whose conversion would take half a minute of CPU fails alone,
// within its URL's time, while the other URL of the call is extracted.
TEST(WebLimits, APageTooComplexToConvertCostsOnlyItsOwnTime) {
  WebHarness h("web:\n  native:\n    timeout: 1\n");
  auto start = steady_clock::now();
  Json out = h.extract(Json::array({fx("/deep.html"), fx("/page.html")}));
  EXPECT_LT(seconds_since(start), 2.5);
  ASSERT_EQ(out["results"].size(), 2u) << out;
  EXPECT_EQ(out["results"][0]["error"],
            "Timed out after 1s fetching " + fx("/deep.html") +
                "; the page was too complex to convert to markdown in time");
  EXPECT_EQ(out["results"][0]["content"], "");
  EXPECT_TRUE(out["results"][1]["error"].is_null()) << out;
  EXPECT_EQ(out["results"][1]["title"], "Fixture Page");
}

TEST(WebLimits, RedirectHopsShareTheUrlsTime) {
  WebHarness h("web:\n  native:\n    timeout: 2\n");
  auto start = steady_clock::now();
  Json row = h.page(fx("/lateredirect?to=/slow"));
  EXPECT_EQ(row["error"], "Timed out after 2s fetching " + fx("/slow"));
  EXPECT_LT(seconds_since(start), 2.8) << "the first hop took 1.5 s of the URL's 2 s";
}

using hermes::testing::ScopedEnv;

TEST(WebLimits, ProxyOnlyWhenConfigured) {
  ScopedEnv proxy("http_proxy", fixture().base());
  ScopedEnv no_https("https_proxy", ""), no_https_caps("HTTPS_PROXY", ""), no_all("all_proxy", ""),
      no_all_caps("ALL_PROXY", "");
  // Default: the proxy variables are ignored, names must resolve, fetches are pinned.
  WebHarness direct;
  EXPECT_EQ(direct.page("http://unresolvable.test/page.html")["error"],
            "Blocked: URL targets a private or internal network address");
  EXPECT_EQ(direct.page(fx("/page.html"))["title"], "Fixture Page");
  EXPECT_EQ(fixture().log().back()["path"], "/page.html");
  // use_proxy: the proxy resolves what we cannot, and every request goes through it.
  WebHarness proxied("web:\n  native:\n    use_proxy: true\n");
  Json row = proxied.page("http://unresolvable.test/page.html");
  EXPECT_EQ(row["title"], "Fixture Page") << row;
  EXPECT_EQ(fixture().log().back()["path"], "http://unresolvable.test/page.html");
  // The target name is still checked: a private answer stays blocked.
  proxied.resolver->set("inside.test", {"10.1.2.3"});
  size_t before = fixture().requests();
  EXPECT_EQ(proxied.page("http://inside.test/page.html")["error"],
            "Blocked: URL targets a private or internal network address");
  EXPECT_EQ(proxied.page("http://169.254.169.254/latest/meta-data/")["error"],
            "Blocked: URL targets a private or internal network address");
  EXPECT_EQ(fixture().requests(), before) << "nothing blocked reached the proxy";
  // No proxy for https: names there must still resolve.
  EXPECT_EQ(proxied.page("https://unresolvable.test/")["error"],
            "Blocked: URL targets a private or internal network address");
}

}  // namespace
}  // namespace hermes::web::testing
