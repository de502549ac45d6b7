// SPDX-License-Identifier: MIT
// HTML → markdown: each construct a model relies on, checked byte for byte.
#include "web/html_markdown.h"

#include "web/charset.h"

#include <gtest/gtest.h>

namespace hermes::web {
namespace {

std::string md(const std::string& html,
               const std::string& url = "https://site.test/dir/page.html") {
  return html_to_markdown(html, url).markdown;
}

TEST(HtmlMarkdown, HeadingsParagraphsAndInline) {
  EXPECT_EQ(md("<h1>Title</h1><p>Some <b>bold</b>, <em> soft </em>and <del>gone</del> text.</p>"
               "<h3>Sub &amp; more</h3><p>a<br>b</p><hr>"),
            "# Title\n\nSome **bold**, *soft* and ~~gone~~ text.\n\n### Sub & more\n\na\nb\n\n---");
}

TEST(HtmlMarkdown, LinksAndImagesMadeAbsolute) {
  EXPECT_EQ(md("<p><a href='/a'>root</a> <a href='b?x=1'>rel</a> <a href='#top'>frag</a> "
               "<a href='javascript:void(0)'>js</a> <a href='https://o.test/'></a> "
               "<img src='i.png' alt=' pic '> <img src='data:image/png;base64,AAAA' alt='d'></p>"),
            "[root](https://site.test/a) [rel](https://site.test/dir/b?x=1) frag js "
            "[https://o.test/](https://o.test/) ![pic](https://site.test/dir/i.png) "
            "![d](data:image/png;base64,AAAA)");
  EXPECT_EQ(md("<head><base href='https://cdn.test/x/'></head><body><a href='y'>y</a></body>"),
            "[y](https://cdn.test/x/y)");
}

TEST(HtmlMarkdown, NestedAndOrderedLists) {
  EXPECT_EQ(md("<ul><li>one<ul><li>inner</li></ul></li><li>two</li></ul>"
               "<ol start='3'><li>three</li><li>four<ol><li>deep</li></ol></li></ol>"),
            "- one\n  - inner\n- two\n\n3. three\n4. four\n   1. deep");
  EXPECT_EQ(md("<dl><dt>Term</dt><dd>Meaning</dd></dl>"), "**Term**\n: Meaning");
}

TEST(HtmlMarkdown, CodeInlineAndFenced) {
  EXPECT_EQ(md("<p>Use <code>a`b</code> and <code>x</code>.</p>"
               "<pre class='lang-py'><code>def f():\n    return '```'\n</code></pre>"
               "<pre><code class=\"language-cpp\">int  x = 1 &lt; 2;</code></pre>"),
            "Use ``a`b`` and `x`.\n\n````py\ndef f():\n    return '```'\n````\n\n"
            "```cpp\nint  x = 1 < 2;\n```");
}

// Documentation generators put the language on the highlighter's wrapper.
TEST(HtmlMarkdown, CodeLanguageFromSphinxAndGithubWrappers) {
  EXPECT_EQ(md("<div class='highlight-python3 notranslate'><div class='highlight'><pre><span>"
               "</span><span class='kn'>import</span> sys\n</pre></div></div>"),
            "```python3\nimport sys\n```");
  EXPECT_EQ(md("<div class='highlight highlight-source-rust'><pre>fn main() {}</pre></div>"),
            "```rust\nfn main() {}\n```");
  EXPECT_EQ(md("<div class='highlight-default'><div class='highlight'><pre>x</pre></div></div>"),
            "```\nx\n```");
}

TEST(HtmlMarkdown, HeadingPermalinksDropped) {
  EXPECT_EQ(md("<h2>Summary<a class='headerlink' href='#summary'>\u00B6</a></h2>"
               "<h3><a href='#x'>\u00A7</a> Sub <a href='#y'>#</a></h3><p>see <a "
               "href='#s'>Summary</a></p>"),
            "## Summary\n\n### Sub\n\nsee Summary");
}

TEST(HtmlMarkdown, TablesAsGfm) {
  EXPECT_EQ(md("<table><tr><td>x</td><td>y</td></tr><tr><th>A</th><th colspan=2>B|C</th></tr>"
               "<tr><td>1</td><td>2\n3</td><td>4</td></tr></table>"),
            "| A | B\\|C |  |\n| --- | --- | --- |\n| x | y |  |\n| 1 | 2 3 | 4 |");
  EXPECT_EQ(md("<table><tr><td>outer<table><tr><td>in</td></tr></table></td></tr></table>"),
            "outer\n\n| in |\n| --- |");
  EXPECT_EQ(
      md("<table><thead><tr><th align=left>L</th><th align='CENTER'>C</th><th "
         "style='color:red; text-align: right'>R</th><th colspan=2 align=right>S</th><th>N</th>"
         "</tr></thead><tbody><tr><td align=right>1</td></tr></tbody></table>"),
      "| L | C | R | S |  | N |\n| :--- | :---: | ---: | ---: | ---: | --- |\n"
      "| 1 |  |  |  |  |  |");
}

TEST(HtmlMarkdown, BlockquoteAndBoilerplateDropped) {
  EXPECT_EQ(md("<nav>menu</nav><header>Head</header><script>x()</script><style>p{}</style>"
               "<blockquote><p>q1</p><p>q2</p></blockquote><div hidden>h</div>"
               "<div aria-hidden='true'>a</div><div "
               "role='navigation'>n</div><form><label>f</label><input value=v></form>"
               "<footer>foot</footer><!-- c -->"),
            "Head\n\n> q1\n>\n> q2");
}

TEST(HtmlMarkdown, ScopeAndTitle) {
  auto doc = html_to_markdown(
      "<html><head><title> My  Page </title></head><body><div>chrome</div>"
      "<main><h2>Body</h2></main></body></html>",
      "https://a.test/");
  EXPECT_EQ(doc.title, "My Page");
  EXPECT_EQ(doc.markdown, "## Body");
  EXPECT_EQ(md("<body><p>x</p><article>one</article><article>two</article></body>"),
            "x\n\none\n\ntwo");
  EXPECT_EQ(md("<body><p>x</p><article><p>only</p></article></body>"), "only");
  EXPECT_EQ(html_to_markdown("<meta property='og:title' content='OG'><p>x</p>", "").title, "OG");
  EXPECT_EQ(html_to_markdown("<h1>First</h1>", "").title, "First");
}

// Deep enough to overflow a recursive writer's stack; shallow enough for
// Gumbo's quadratic tree builder to finish quickly in process.
TEST(HtmlMarkdown, HostileNestingDoesNotExhaustTheStack) {
  std::string html;
  for (int i = 0; i < 10000; ++i) html += "<div><span>";
  html += "deep";
  EXPECT_NE(md(html).find("deep"), std::string::npos);
}

TEST(Charset, DetectionOrder) {
  EXPECT_EQ(detect_charset("\xEF\xBB\xBFx", "text/html; charset=iso-8859-1", true), "utf-8");
  EXPECT_EQ(detect_charset("x", "text/html; charset=\"Latin1\"", true), "windows-1252");
  EXPECT_EQ(detect_charset("<meta charset=shift_jis>", "text/html", true), "shift_jis");
  EXPECT_EQ(detect_charset("<meta http-equiv='Content-Type' content='text/html; charset=koi8-r'>",
                           "text/html", true),
            "koi8-r");
  EXPECT_EQ(detect_charset("caf\xC3\xA9", "text/html", true), "utf-8");
  EXPECT_EQ(detect_charset("caf\xE9", "text/html", true), "windows-1252");
}

TEST(Charset, Conversion) {
  EXPECT_EQ(to_utf8("caf\xE9 \x93q\x94", "windows-1252"), "café “q”");
  EXPECT_EQ(to_utf8("\x93\xfa\x96\x7b", "shift_jis"), "日本");
  EXPECT_EQ(to_utf8("a\xFF"
                    "b",
                    "utf-8"),
            "a\xEF\xBF\xBD"
            "b");
  EXPECT_EQ(to_utf8(std::string_view("\xFF\xFEh\0i\0", 6), "utf-16le"), "hi");
}

}  // namespace
}  // namespace hermes::web
