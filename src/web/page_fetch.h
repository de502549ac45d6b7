// SPDX-License-Identifier: MIT
// Fetching one page for the native extractor: every hop is vetted (scheme,
// address table with a fresh pinned resolution, website policy) before it
// is dialled, and redirects are followed here, not by curl.
#pragma once

#include "web/http.h"
#include "web/site_policy.h"
#include "web/url_guard.h"

#include <chrono>
#include <optional>
#include <stop_token>
#include <string>

namespace hermes::web {

struct PageFetchEnv {
  const UrlGuard& guard;
  const SitePolicy& policy;
  HttpLimits limits;  // total_timeout bounds one URL, all its hops together
  int max_redirects = 10;
  // The end of the whole web_extract call, and its length for messages.
  std::chrono::steady_clock::time_point call_deadline =
      std::chrono::steady_clock::time_point::max();
  std::chrono::seconds call_limit{0};
};

struct FetchedPage {
  std::string url;           // the final URL, or the hop that failed
  std::string content_type;  // lower case, parameters included
  std::string body;          // decoded from gzip/deflate
  std::string error;         // empty on success
  std::optional<PolicyBlock> policy_block;
  // When the URL's time runs out (its own limit or the call's, whichever
  // comes first; converting the body counts too), and the error saying so.
  std::chrono::steady_clock::time_point deadline;
  std::string timeout_error;
};

FetchedPage fetch_page(const std::string& url, const PageFetchEnv& env, std::stop_token stop);

}  // namespace hermes::web
