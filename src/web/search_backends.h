// SPDX-License-Identifier: MIT
// The keyless and search-only backends: SearXNG (self-hosted), DuckDuckGo's
// HTML endpoint (our own client; web/ddg_results.h reads its pages) and
// Brave's free tier.
#pragma once

#include "web/backend.h"

#include <chrono>
#include <memory>
#include <string>

namespace hermes::web {

// `timeout` bounds each request (the whole exchange).
// `base` is SEARXNG_URL (empty: every call fails with `SEARXNG_URL is not set`).
std::unique_ptr<SearchBackend> make_searxng(std::string base, std::chrono::seconds timeout);
// `base` defaults to https://html.duckduckgo.com.
std::unique_ptr<SearchBackend> make_ddg(std::string base, std::chrono::seconds timeout);
// `key` is BRAVE_SEARCH_API_KEY; `base` defaults to https://api.search.brave.com.
std::unique_ptr<SearchBackend> make_brave(std::string key, std::string base,
                                          std::chrono::seconds timeout);

}  // namespace hermes::web
