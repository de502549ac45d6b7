// SPDX-License-Identifier: MIT
// HTML → markdown for the native extractor, on Gumbo's HTML5 tree builder.
// Scope is the page's single <main> (or [role=main]), else its single
// <article>, else <body>; navigation, scripts, forms, footers and hidden
// elements are dropped. Headings become `#`, links and images absolute,
// lists `-`/`1.`, tables GFM pipe tables, <pre> fenced code with its language.
#pragma once

#include <string>
#include <string_view>

namespace hermes::web {

struct HtmlDocument {
  std::string title;  // <title>, else og:title, else the first <h1>
  std::string markdown;
};

// `html` is UTF-8; relative links resolve against <base href> or `page_url`.
HtmlDocument html_to_markdown(std::string_view html, const std::string& page_url);

}  // namespace hermes::web
