// SPDX-License-Identifier: MIT
// The contract's details an attacker or a sloppy vendor would probe: exact
// schemas, vendor caps and failure strings, every credential parameter,
// isError, the page cache, IDN hosts, and secrets kept from scripts.
#include "testutil/scoped_env.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "web_harness.h"

namespace hermes::web::testing {
namespace {

std::string fx(const std::string& path) { return fixture().url(path); }

std::string base_env(const std::string& name, const std::string& path) {
  return name + "=" + fx(path) + "\n";
}

// A port nothing listens on (vendor base URLs are operator config).
constexpr const char* kClosed = "http://127.0.0.1:1";

Json last_request() { return fixture().log().back(); }

TEST(WebContract, SchemasAreByteForByteTheContract) {
  WebHarness h;
  const registry::ToolSpec* search = h.registry().find("web_search", h.services());
  const registry::ToolSpec* extract = h.registry().find("web_extract", h.services());
  ASSERT_TRUE(search && extract);
  EXPECT_EQ(
      search->description,
      "Search the web for information. Returns up to 5 results by default with titles, URLs, and "
      "descriptions. The query is passed through to the configured backend, so operators such as "
      "site:domain, filetype:pdf, intitle:word, -term, and \"exact phrase\" may work when the "
      "backend "
      "supports them.");
  EXPECT_EQ(dump_json(search->input_schema),
            dump_json(Json::parse(R"JSON({"type": "object", "properties": {
   "query": {"type": "string", "description": "The search query to look up on the web. You may include backend-supported operators such as site:example.com, filetype:pdf, intitle:word, -term, or \"exact phrase\"."},
   "limit": {"type": "integer", "description": "Maximum number of results to return. Defaults to 5.", "minimum": 1, "maximum": 100, "default": 5}},
  "required": ["query"]})JSON")));
  EXPECT_EQ(dump_json(extract->input_schema),
            dump_json(Json::parse(R"JSON({"type": "object", "properties": {
   "urls": {"type": "array", "items": {"type": "string"}, "description": "List of URLs to extract content from (max 5 URLs per call)", "maxItems": 5},
   "char_limit": {"type": "integer", "description": "Optional per-page character budget sent back (default 15000). Pages larger than this are head+tail truncated with the full text stored to disk. Raise it when you need more of a long page inline.", "minimum": 2000}},
  "required": ["urls"]})JSON")));
  EXPECT_NE(extract->description.find("If a URL fails or times out, use the browser tool instead."),
            std::string::npos);
}

TEST(WebContract, VendorCapsOnTheRequestedCount) {
  WebHarness brave(
      "web:\n  search_backend: brave-free\n",
      "BRAVE_SEARCH_API_KEY=brave-k\n" + base_env("HERMES_TOOLS_BRAVE_BASE_URL", "/brave"));
  EXPECT_EQ(brave.search("caps", {{"limit", 50}})["data"]["web"].size(), 20u);
  EXPECT_NE(last_request()["path"].get<std::string>().find("count=20"), std::string::npos)
      << last_request();
  EXPECT_EQ(last_request()["headers"]["X-Subscription-Token"], "brave-k");
  WebHarness tavily("", "TAVILY_API_KEY=tvly-k\n" + base_env("TAVILY_BASE_URL", "/tavily"));
  EXPECT_EQ(tavily.search("caps", {{"limit", 100}})["data"]["web"].size(), 20u);
  EXPECT_EQ(Json::parse(last_request()["body"].get<std::string>())["max_results"], 20);
  WebHarness parallel(
      "", "PARALLEL_API_KEY=par-k\n" + base_env("HERMES_TOOLS_PARALLEL_BASE_URL", "/parallel"));
  Json out = parallel.search("caps", {{"limit", 30}});
  EXPECT_EQ(out["data"]["web"].size(), 20u);
  Json body = Json::parse(last_request()["body"].get<std::string>());
  EXPECT_EQ(body["max_results"], 20);
  EXPECT_EQ(body["mode"], "agentic");
  EXPECT_EQ(out["data"]["web"][0]["description"], "x y");
  WebHarness searxng("", base_env("SEARXNG_URL", "/searxng"));
  EXPECT_EQ(searxng.search("caps", {{"limit", 3}})["data"]["web"].size(), 3u);
  EXPECT_EQ(searxng.search("caps", {{"limit", "7"}})["data"]["web"].size(), 7u);
}

TEST(WebContract, UnreachableAndGarbageVendors) {
  auto error_of = [](const std::string& yaml, const std::string& env, const std::string& q) {
    return WebHarness(yaml, env).search(q)["error"].get<std::string>();
  };
  EXPECT_EQ(error_of("", "SEARXNG_URL=" + std::string(kClosed) + "/\n", "q")
                .rfind("Could not reach SearXNG at http://127.0.0.1:1: ", 0),
            0u);
  std::string brave = "web:\n  search_backend: brave-free\n";
  EXPECT_EQ(error_of(brave,
                     "BRAVE_SEARCH_API_KEY=brave-k\nHERMES_TOOLS_BRAVE_BASE_URL=" +
                         std::string(kClosed) + "\n",
                     "q")
                .rfind("Could not reach Brave Search: ", 0),
            0u);
  std::string brave_env =
      "BRAVE_SEARCH_API_KEY=brave-k\n" + base_env("HERMES_TOOLS_BRAVE_BASE_URL", "/brave");
  EXPECT_EQ(error_of(brave, brave_env, "badjson"), "Could not parse Brave Search response as JSON");
  EXPECT_EQ(error_of(brave, brave_env, "status:429"), "Brave Search returned HTTP 429");
  EXPECT_EQ(error_of(brave, brave_env, "status:401"), "Brave Search returned HTTP 401");
  std::string exa_env =
      "EXA_API_KEY=exa-secret-key\n" + base_env("HERMES_TOOLS_EXA_BASE_URL", "/exa");
  EXPECT_EQ(error_of("", exa_env, "status:401"), "Exa search failed: HTTP 401: vendor says 401");
  EXPECT_EQ(error_of("", exa_env, "deepjson"), "Exa search failed: invalid JSON response");
  std::string par_env =
      "PARALLEL_API_KEY=par-secret-key\n" + base_env("HERMES_TOOLS_PARALLEL_BASE_URL", "/parallel");
  EXPECT_EQ(error_of("", par_env, "status:402"),
            "Parallel search failed: HTTP 402: vendor says 402");
  std::string fc = "web:\n  search_backend: firecrawl\n";
  EXPECT_EQ(error_of(fc, "FIRECRAWL_API_URL=" + std::string(kClosed) + "\n", "q")
                .rfind("Firecrawl search failed: ", 0),
            0u);
}

TEST(WebContract, FirecrawlWithoutConfigurationIsAnException) {
  WebHarness h("web:\n  search_backend: firecrawl\n");
  Json out = h.search("q");
  EXPECT_FALSE(out.contains("success")) << out;
  EXPECT_EQ(
      out["error"].get<std::string>().rfind("Error searching web: Web tools are not configured. "
                                            "Set FIRECRAWL_API_KEY for cloud Firecrawl",
                                            0),
      0u)
      << out;
}

TEST(WebContract, EveryCredentialParameterRefusesTheCall) {
  WebHarness h;
  for (const char* name : {"access_token",
                           "api_key",
                           "apikey",
                           "auth_token",
                           "authorization",
                           "awsaccesskeyid",
                           "client_secret",
                           "credential",
                           "credentials",
                           "jwt",
                           "password",
                           "passwd",
                           "secret",
                           "session_id",
                           "signature",
                           "token",
                           "x_amz_security_token",
                           "x_amz_signature",
                           "x-amz-security-token",
                           "x-amz-signature"}) {
    std::string upper = name;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    for (const std::string& written : {std::string(name), upper}) {
      Json out =
          h.extract(Json::array({fx("/page.html"), "https://example.com/a?x=1&" + written + "=v"}));
      EXPECT_EQ(out["success"], false) << written;
      EXPECT_NE(
          out["error"].get<std::string>().find("credential-like query parameter (" + written + ")"),
          std::string::npos)
          << out;
    }
  }
  // Percent-encoded parameter names are decoded before the comparison.
  EXPECT_EQ(h.extract(Json::array({"https://example.com/?%74oken=v"}))["success"], false);
  EXPECT_TRUE(h.extract(Json::array({"https://example.com/?tokens=v"})).contains("results"));
}

TEST(WebContract, IsErrorFollowsTheEnvelopeNotTheRows) {
  WebHarness h;
  EXPECT_TRUE(h.reply("web_search", {{"query", ""}}).is_error);
  EXPECT_TRUE(h.reply("web_extract", Json{{"urls", Json::array()}}).is_error);
  registry::ToolReply rows =
      h.reply("web_extract", Json{{"urls", {"http://10.0.0.1/", fx("/status/404")}}});
  EXPECT_FALSE(rows.is_error) << rows.value;
  EXPECT_EQ(rows.value["results"].size(), 2u);
  registry::ToolReply bad = h.reply("web_extract", Json{{"urls", 7}});
  EXPECT_TRUE(bad.is_error);
  EXPECT_EQ(bad.code, ErrorCode::kInvalidArgument);
  EXPECT_FALSE(h.reply("web_search", {{"query", "python"}}).is_error);
}

TEST(WebContract, ItemsAndCounts) {
  WebHarness h;
  Json urls =
      Json::array({Json{{"url", fx("/plain.txt")}, {"href", "ignored"}},
                   Json{{"url", 5}, {"href", fx("/page.html")}}, Json{{"title", "no url"}}});
  for (int i = 0; i < 3; ++i) urls.push_back(fx("/plain.txt?i=" + std::to_string(i)));
  Json out = h.extract(urls);
  ASSERT_EQ(out["results"].size(), 5u) << out;
  EXPECT_EQ(out["results"][0]["content"], "just text\n");
  EXPECT_EQ(out["results"][1]["title"], "Fixture Page");
  EXPECT_EQ(out["results"][2]["url"], "");
  EXPECT_EQ(out["_warning"],
            "Only the first 5 URLs were extracted (6 given); call again for the rest.");
}

TEST(WebContract, VendorPagesCachedButLoopbackNever) {
  std::chrono::steady_clock::time_point now{};
  WebHarness h("", "TAVILY_API_KEY=tvly-k\n" + base_env("TAVILY_BASE_URL", "/tavily"));
  h.start_service([&] { return now; });
  h.resolver->set("a.example", {"93.184.216.34"});
  size_t before = fixture().requests();
  EXPECT_EQ(h.page("https://a.example/x")["content"], "content of https://a.example/x");
  EXPECT_EQ(h.page("https://a.example/x", {{"char_limit", 2000}})["content"],
            "content of https://a.example/x");
  EXPECT_EQ(fixture().requests() - before, 1u) << "the second call is a cache hit";
  now += std::chrono::minutes(21);
  h.page("https://a.example/x");
  EXPECT_EQ(fixture().requests() - before, 2u) << "20 minutes later the entry has expired";
  h.page("https://a.example/x");
  EXPECT_EQ(fixture().requests() - before, 2u) << "and was stored again";
  // Private answers are never cached.
  h.resolver->set("a.example", {"192.168.1.20"});
  EXPECT_EQ(h.page("https://a.example/x")["error"],
            "Blocked: URL targets a private or internal network address")
      << "a cached page does not skip the address check";
  // Pages from loopback fixtures are fetched every time.
  WebHarness native;
  before = fixture().requests();
  native.page(fx("/page.html"));
  native.page(fx("/page.html"));
  EXPECT_EQ(fixture().requests() - before, 2u);
}

TEST(WebContract, IdnHostsAreCheckedInTheirAsciiForm) {
  WebHarness h(
      "security:\n  website_blocklist:\n    enabled: true\n    domains: ['bücher.example']\n");
  h.resolver->set("xn--mnich-kva.test", {"127.0.0.1"});
  std::string port = std::to_string(fixture().port());
  Json row = h.page("http://münich.test:" + port + "/page.html");
  EXPECT_EQ(row["title"], "Fixture Page") << row;
  EXPECT_EQ(row["url"], "http://xn--mnich-kva.test:" + port + "/page.html");
  EXPECT_EQ(last_request()["headers"]["Host"], "xn--mnich-kva.test:" + port);
  h.resolver->set("xn--bcher-kva.example", {"93.184.216.34"});
  Json policy = h.page("https://BÜCHER.example/");
  EXPECT_EQ(policy["error"],
            "Blocked by website policy: 'xn--bcher-kva.example' matched rule "
            "'xn--bcher-kva.example' from config")
      << policy;
  // Full-width digits and ideographic full stops are loopback in disguise.
  size_t seen = sentinel().requests();
  for (const std::string& u : {"http://１２７.０.０.１:" + std::to_string(sentinel().port()) + "/",
                               "http://127。0。0。1:" + std::to_string(sentinel().port()) + "/",
                               std::string("http://xn--/"), std::string("http://a\xC3.example/")})
    EXPECT_EQ(h.page(u)["error"], "Blocked: URL targets a private or internal network address")
        << u;
  EXPECT_EQ(sentinel().requests(), seen);
}

TEST(WebContract, RedirectIntoABlocklistedHost) {
  WebHarness h("security:\n  website_blocklist:\n    enabled: true\n    domains: [fixture.test]\n");
  std::string target = "http://fixture.test:" + std::to_string(fixture().port()) + "/page.html";
  Json row = h.page(fx("/redirect?to=" + target));
  EXPECT_EQ(row["url"], target);
  EXPECT_EQ(row["error"],
            "Blocked by website policy: 'fixture.test' matched rule 'fixture.test' from config");
  EXPECT_EQ(row["blocked_by_policy"],
            Json({{"host", "fixture.test"}, {"rule", "fixture.test"}, {"source", "config"}}));
}

TEST(WebContract, BlocklistFilesAndBadConfig) {
  WebHarness files(
      "security:\n  website_blocklist:\n    enabled: true\n    shared_files: [lists/block.txt, "
      "/no/such/file]\n");
  std::filesystem::create_directories(files.home().path() + "/lists");
  std::ofstream(files.home().path() + "/lists/block.txt")
      << "# comment\n\nHTTPS://WWW.Evil.Example./path\n";
  files.resolver->set("a.evil.example", {"93.184.216.34"});
  Json row = files.page("https://a.evil.example/");
  EXPECT_EQ(row["error"],
            "Blocked by website policy: 'a.evil.example' matched rule 'evil.example' from " +
                files.home().path() + "/lists/block.txt")
      << row;
  // A blocklist that is not a list blocks nothing (fails open) and breaks nothing.
  WebHarness odd("security:\n  website_blocklist:\n    enabled: true\n    domains: {a: b}\n");
  EXPECT_EQ(odd.page(fx("/page.html"))["title"], "Fixture Page");
}

TEST(WebContract, EndlessBodyAndMissingPdftotext) {
  WebHarness h("web:\n  native:\n    timeout: 20\n");
  EXPECT_EQ(h.page(fx("/endless"))["error"], "Response too large (over 10 MiB)");
  Json row;
  {
    hermes::testing::ScopedEnv no_tools("PATH", "/nonexistent");
    row = h.page(fx("/doc.pdf"));
  }
  EXPECT_EQ(
      row["error"],
      "PDF extraction needs pdftotext (poppler-utils); install it or set web.extract_backend.");
}

TEST(WebContract, ScriptsNeverSeeVendorKeys) {
  hermes::testing::ScopedEnv key("EXA_API_KEY", "exa-process-secret");
  WebHarness h("", base_env("HERMES_TOOLS_EXA_BASE_URL", "/exa") +
                       "BRAVE_SEARCH_API_KEY=brave-dotenv-secret\n");
  Json out = h.run(
      "import os\nfrom hermes_tools import web_search\n"
      "r = web_search('keys', limit=2)\n"
      "print(len(r['data']['web']), os.environ.get('EXA_API_KEY'), "
      "os.environ.get('BRAVE_SEARCH_API_KEY'))\n"
      "print(sorted(k for k in os.environ if k.endswith('_API_KEY')))\n");
  EXPECT_EQ(out["status"], "success") << out;
  EXPECT_EQ(out["output"], "2 None None\n[]\n") << out;
  EXPECT_EQ(dump_json(out).find("secret"), std::string::npos);
}

TEST(WebContract, CharLimitClampedAndDefaultConfigurable) {
  WebHarness h;
  auto showing = [&](Json extra) {
    std::string content = h.page(fx("/oneline.txt"), std::move(extra))["content"];
    size_t at = content.find("Showing ");
    return at == std::string::npos ? content : content.substr(at, content.find(" total", at) - at);
  };
  EXPECT_EQ(showing({{"char_limit", 1999}}),
            "Showing 1,500 chars (head) + 500 chars (tail) of 5,000");
  EXPECT_EQ(showing({{"char_limit", "2400"}}),
            "Showing 1,800 chars (head) + 600 chars (tail) of 5,000");
  EXPECT_EQ(showing({{"char_limit", nullptr}}), std::string(5000, 'a'))
      << "null: the 15,000 default";
  WebHarness configured("web:\n  extract_char_limit: 3000\n");
  std::string content = configured.page(fx("/oneline.txt"))["content"];
  EXPECT_NE(content.find("Showing 2,250 chars (head) + 750 chars (tail)"), std::string::npos)
      << content;
}

TEST(WebContract, CharLimitPassesThroughExecuteCode) {
  WebHarness h;
  Json out = h.run(
      "from hermes_tools import web_extract\n"
      "r = web_extract(['" +
      fx("/long.html") +
      "'], char_limit=2500)\n"
      "c = r['results'][0]['content']\n"
      "head = int(c.split('Showing ')[1].split(' chars')[0].replace(',', ''))\n"
      "print(937 < head <= 1875)\n");
  EXPECT_EQ(out["status"], "success") << out;
  EXPECT_EQ(out["output"], "True\n") << out;
}

}  // namespace
}  // namespace hermes::web::testing
