// SPDX-License-Identifier: MIT
// The converter as web_extract runs it: in a child that a hostile page can
// only cost its own time, never the server.
#include "web/isolated_markdown.h"

#include "web/page_content.h"

#include <gtest/gtest.h>

#include <signal.h>

namespace hermes::web {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr const char* kUrl = "https://site.test/dir/page.html";

// 20,000 levels of <div><span>: 40,000 nested elements, half a minute of
// Gumbo's time in process.
std::string nested_page() {
  std::string html = "<html><body>";
  for (int i = 0; i < 20000; ++i) html += "<div><span>";
  return html + "deep";
}

TEST(IsolatedMarkdown, SameAnswerAsInProcess) {
  std::string html =
      "<title>T | x</title><main><h1>Hi</h1><p><a href='/a'>a</a></p><ul><li>1</li></ul>"
      "<table><tr><th>h</th></tr><tr><td>c</td></tr></table><pre class='language-c'>x;</pre>"
      "</main>";
  auto isolated =
      html_to_markdown_isolated(html, kUrl, Clock::now() + std::chrono::seconds(10), {});
  ASSERT_TRUE(isolated.has_value()) << isolated.error().message;
  HtmlDocument direct = html_to_markdown(html, kUrl);
  EXPECT_EQ(isolated->title, direct.title);
  EXPECT_EQ(isolated->markdown, direct.markdown);
  EXPECT_NE(isolated->markdown.find("[a](https://site.test/a)"), std::string::npos);
}

TEST(IsolatedMarkdown, DeepNestingCostsOnlyItsBudget) {
  auto start = Clock::now();
  auto doc = html_to_markdown_isolated(nested_page(), kUrl, start + milliseconds(300), {});
  ASSERT_FALSE(doc.has_value());
  EXPECT_EQ(doc.error().code, ErrorCode::kTimeout);
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(3));
}

TEST(IsolatedMarkdown, PageContentNamesTheTimeLimit) {
  ContentDeadline deadline{Clock::now() + milliseconds(300),
                           "Timed out after 1s fetching " + std::string(kUrl)};
  PageContent out = page_content(nested_page(), "text/html", kUrl, deadline, {});
  EXPECT_EQ(out.content, "");
  EXPECT_EQ(out.error,
            "Timed out after 1s fetching https://site.test/dir/page.html; the page was too "
            "complex to convert to markdown in time");
}

HtmlDocument crash(std::string_view, const std::string&) {
  ::raise(SIGSEGV);
  return {};
}

HtmlDocument flood(std::string_view, const std::string&) {
  return {"t", std::string(kMarkdownCap + 1024, 'm')};
}

TEST(IsolatedMarkdown, ACrashingConverterIsAClearError) {
  auto doc = html_to_markdown_isolated("<p>x</p>", kUrl, Clock::now() + std::chrono::seconds(10),
                                       {}, crash);
  ASSERT_FALSE(doc.has_value());
  EXPECT_EQ(doc.error().code, ErrorCode::kIo);
  EXPECT_EQ(doc.error().message, "was killed by signal 11 (SIGSEGV)");
}

TEST(IsolatedMarkdown, HugeOutputIsRefusedNotBuffered) {
  auto doc = html_to_markdown_isolated("<p>x</p>", kUrl, Clock::now() + std::chrono::seconds(20),
                                       {}, flood);
  ASSERT_FALSE(doc.has_value());
  EXPECT_EQ(doc.error().code, ErrorCode::kTooLarge);
}

}  // namespace
}  // namespace hermes::web
