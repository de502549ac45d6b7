// SPDX-License-Identifier: MIT
// DuckDuckGo's HTML results page, read with Gumbo. A results page comes off
// the network like any other, so web_search parses it under the converter's
// limits (web/isolated_markdown.h): a search backend that answers with a
// nesting bomb costs one child its deadline, never the server.
#pragma once

#include "core/result.h"
#include "web/backend.h"

#include <chrono>
#include <stop_token>
#include <string_view>
#include <vector>

namespace hermes::web {

// The hits of a DuckDuckGo HTML results page (ads skipped, `uddg`
// redirect links decoded), at most `limit`.
std::vector<SearchHit> parse_ddg_html(std::string_view html, int limit);

// parse_ddg_html in a forked child (run_html_child). Errors: kTimeout
// (`deadline` passed), kCancelled, kTooLarge, kIo (the child crashed).
Result<std::vector<SearchHit>> parse_ddg_html_isolated(
    std::string_view html, int limit, std::chrono::steady_clock::time_point deadline,
    std::stop_token stop);

}  // namespace hermes::web
