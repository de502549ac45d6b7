// SPDX-License-Identifier: MIT
// Truncate-and-store, inline images and the caches, piece by piece: the
// footer byte for byte, the snap rules, the stored copy, and the memo under
// concurrency and an injected clock.
#include "testutil/temp_dir.h"
#include "tools/web/extract_guards.h"
#include "tools/web/page_store.h"
#include "tools/web/web_cache.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <sstream>
#include <thread>

namespace hermes::web_tools {
namespace {

std::string lines(int n, const std::string& line) {
  std::string out;
  for (int i = 0; i < n; ++i) out += line + "\n";
  return out;
}

PageStorer stored_at(const std::string& path) {
  return [path]() -> std::optional<std::string> { return path; };
}

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(FitPage, WholeAtExactlyTheLimitCountingCodePoints) {
  std::string page;
  for (int i = 0; i < 2000; ++i) page += "é";
  bool stored = false;
  PageStorer store = [&]() -> std::optional<std::string> {
    stored = true;
    return "x";
  };
  EXPECT_EQ(fit_page(page, 2000, store), page);
  EXPECT_FALSE(stored);
  EXPECT_NE(fit_page(page + "e", 2000, store), page + "e");
  EXPECT_TRUE(stored);
}

TEST(FitPage, FooterByteForByteWithBothSnaps) {
  // 300 lines of 10 characters: head budget 1500 snaps to 149 full lines
  // plus one without its newline, tail 500 drops its partial first line.
  std::string page = lines(300, "abcdefghi");
  std::string head = lines(149, "abcdefghi") + "abcdefghi";
  std::string tail = lines(49, "abcdefghi");
  EXPECT_EQ(fit_page(page, 2000, stored_at("/c/p.md")),
            head + "\n\n[... middle omitted — see footer ...]\n\n" + tail + "\n" +
                "\n──────── [TRUNCATED] ────────\n"
                "Showing 1,499 chars (head) + 490 chars (tail) of 3,000 total clean characters.\n"
                "Full text saved to: /c/p.md\n"
                "To read the omitted middle: read_file path=\"/c/p.md\" offset=151 limit=200  (the "
                "file is the "
                "complete page; raise/lower offset to page through it).\n"
                "─────────────────────────────");
}

TEST(FitPage, OffsetIsTheFirstOmittedLineOfTheStoredFile) {
  std::string page;
  for (int i = 1; i <= 400; ++i) page += "line " + std::to_string(i) + " of the page\n";
  std::string fitted = fit_page(page, 3000, stored_at("/p.md"));
  size_t at = fitted.find("offset=");
  int offset = std::stoi(fitted.substr(at + 7));
  std::string shown_head = fitted.substr(0, fitted.find("\n\n[... middle omitted"));
  std::string last_head_line = shown_head.substr(shown_head.rfind('\n') + 1);
  EXPECT_EQ(last_head_line, "line " + std::to_string(offset - 1) + " of the page");
}

TEST(FitPage, NoSnapWithoutNearbyNewlines) {
  std::string page(5000, 'a');
  page[100] = '\n';
  std::string fitted = fit_page(page, 2000, stored_at("/p.md"));
  EXPECT_EQ(fitted.find("\n\n[... middle omitted"), 1500u);
  EXPECT_NE(fitted.find("Showing 1,500 chars (head) + 500 chars (tail) of 5,000 total"),
            std::string::npos);
}

TEST(FitPage, StoreFailureHasItsOwnFooter) {
  PageStorer fails = []() -> std::optional<std::string> { return std::nullopt; };
  std::string fitted = fit_page(std::string(3000, 'b'), 2000, fails);
  EXPECT_TRUE(
      fitted.ends_with("total clean characters.\nFull text could not be stored; re-run web_extract "
                       "on a more specific URL or use "
                       "browser_navigate for the complete page.\n─────────────────────────────"));
  EXPECT_EQ(fitted.find("read_file"), std::string::npos);
}

TEST(StorePage, CapMarkerAndRefusals) {
  hermes::testing::TempDir dir;
  std::string path = dir.path() + "/cache/web/big.md";
  ASSERT_TRUE(store_page(path, std::string(2'000'001, 'a')));
  std::string stored = read_all(path);
  EXPECT_EQ(stored,
            std::string(2'000'000, 'a') +
                "\n\n[... stored copy truncated at 2,000,000 chars of 2,000,001; re-extract a more "
                "specific URL for the rest ...]");
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u);
  // A symlink planted at the path is replaced, never written through.
  std::string victim = dir.path() + "/victim";
  std::ofstream(victim) << "keep";
  std::string planted = dir.path() + "/cache/web/planted.md";
  ASSERT_EQ(::symlink(victim.c_str(), planted.c_str()), 0);
  ASSERT_TRUE(store_page(planted, "page"));
  EXPECT_EQ(read_all(victim), "keep");
  EXPECT_EQ(read_all(planted), "page");
  // A cache directory that cannot exist: storing fails, nothing thrown.
  std::ofstream(dir.path() + "/file") << "x";
  EXPECT_FALSE(store_page(dir.path() + "/file/web/p.md", "page"));
}

TEST(StorePage, PathScheme) {
  std::string path = stored_page_path("/h/cache/web", "https://Docs.Example.com:8443/a?b");
  EXPECT_EQ(path.rfind("/h/cache/web/docs.example.com_8443-", 0), 0u) << path;
  EXPECT_TRUE(path.ends_with(".md"));
  EXPECT_EQ(path.size(), std::string("/h/cache/web/docs.example.com_8443-").size() + 10 + 3);
  EXPECT_EQ(stored_page_path("/d", "not a url").rfind("/d/page-", 0), 0u);
}

TEST(InlineImages, EveryForm) {
  EXPECT_EQ(replace_inline_images("a ![ Logo ](data:image/png;base64,iVBORw0K\nGgo=) b"),
            "a [IMAGE: Logo] b");
  EXPECT_EQ(replace_inline_images("![  ](data:image/gif;base64,R0lGOD==)"), "[IMAGE]");
  EXPECT_EQ(replace_inline_images("see (data:image/svg+xml;base64,PHN2Zz4=)"), "see [IMAGE]");
  EXPECT_EQ(replace_inline_images("bare data:image/jpeg;base64,/9j/4AAQ== end"),
            "bare [IMAGE] end");
  EXPECT_EQ(replace_inline_images("{\"og\": \"data:image/png;base64,AAAA\"}"),
            "{\"og\": \"[IMAGE]\"}");
  EXPECT_EQ(replace_inline_images("![x](https://cdn.test/x.png)"), "![x](https://cdn.test/x.png)");
}

CachePolicy clocked(std::chrono::steady_clock::time_point* now) {
  CachePolicy p;
  p.now = [now] { return *now; };
  return p;
}

TEST(SearchMemo, ConcurrentIdenticalCallsShareOneRun) {
  std::chrono::steady_clock::time_point now{};
  SearchMemo memo(clocked(&now));
  std::atomic<int> runs{0};
  auto slow = [&]() -> SearchHits {
    ++runs;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    return std::vector<web::SearchHit>{{"t", "u", "d"}};
  };
  {
    std::vector<std::jthread> callers;
    for (int i = 0; i < 6; ++i)
      callers.emplace_back([&] { EXPECT_EQ(memo.get("k", slow).value().size(), 1u); });
  }
  EXPECT_EQ(runs, 1);
  now += std::chrono::minutes(19);
  EXPECT_TRUE(memo.get("k", slow));
  EXPECT_EQ(runs, 1);
  now += std::chrono::minutes(2);
  EXPECT_TRUE(memo.get("k", slow));
  EXPECT_EQ(runs, 2) << "expired after the 20-minute TTL";
}

TEST(SearchMemo, FailuresAreNotKept) {
  SearchMemo memo(CachePolicy{});
  int runs = 0;
  auto failing = [&]() -> SearchHits {
    ++runs;
    return Error::Unavailable("down");
  };
  EXPECT_FALSE(memo.get("k", failing));
  EXPECT_FALSE(memo.get("k", failing));
  EXPECT_EQ(runs, 2);
}

TEST(PageCache, TtlAndByteBound) {
  std::chrono::steady_clock::time_point now{};
  CachePolicy policy = clocked(&now);
  policy.extract_bytes = 1000;
  PageCache cache(policy);
  cache.put("a", {"https://a/", "A", std::string(400, 'a')});
  cache.put("b", {"https://b/", "B", std::string(400, 'b')});
  ASSERT_TRUE(cache.find("a"));  // a is now the most recent
  cache.put("c", {"https://c/", "C", std::string(400, 'c')});
  EXPECT_TRUE(cache.find("a"));
  EXPECT_FALSE(cache.find("b")) << "the least recently used entry made room";
  EXPECT_TRUE(cache.find("c"));
  now += std::chrono::minutes(21);
  EXPECT_FALSE(cache.find("a"));
}

}  // namespace
}  // namespace hermes::web_tools
