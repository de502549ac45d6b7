// SPDX-License-Identifier: MIT
#include "web/page_fetch.h"

#include "core/strings.h"

namespace hermes::web {
namespace {

constexpr const char* kAccept =
    "Accept: text/html,application/xhtml+xml,application/pdf;q=0.9,text/plain;q=0.8,*/*;q=0.5";

bool is_redirect(long status) {
  return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

std::string status_error(long status, const std::string& url) {
  std::string out = "HTTP " + std::to_string(status) + " fetching " + url;
  if (status == 401 || status == 403 || status == 429 || status == 503)
    out += " — the site may block automated clients; try the browser tool";
  return out;
}

using SteadyTime = std::chrono::steady_clock::time_point;

// When one hop must be done: the URL's own limit or the call's, whichever
// comes first; `by_call` says which.
struct HopDeadline {
  SteadyTime at;
  bool by_call = false;
};

HopDeadline hop_deadline(SteadyTime url_deadline, const PageFetchEnv& env) {
  if (env.call_deadline < url_deadline) return {env.call_deadline, true};
  return {url_deadline, false};
}

std::string timeout_error(const std::string& url, const PageFetchEnv& env, bool by_call) {
  if (by_call)
    return "Timed out after " + std::to_string(env.call_limit.count()) + "s fetching " + url +
           " (the time limit of one web_extract call)";
  return "Timed out after " + std::to_string(env.limits.total_timeout.count() / 1000) +
         "s fetching " + url;
}

std::string transfer_error(const Error& e, const std::string& url, const PageFetchEnv& env,
                           bool by_call) {
  switch (e.code) {
    case ErrorCode::kTimeout:
      return timeout_error(url, env, by_call);
    case ErrorCode::kTooLarge:
      return "Response too large (over " + std::to_string(env.limits.max_body >> 20) + " MiB)";
    case ErrorCode::kCancelled:
    case ErrorCode::kPermissionDenied:
      return e.message;
    default:
      return "Could not fetch " + url + ": " + e.message;
  }
}

// One hop: vet, pin (or go through the configured proxy), fetch within
// `deadline`. Sets `page.error` on failure.
std::optional<HttpResponse> hop(const std::string& url, const PageFetchEnv& env,
                                HopDeadline deadline, std::stop_token stop, FetchedPage& page) {
  page.url = url;
  auto parsed = parse_url(url);
  auto vetted = parsed
                    ? env.guard.vet(*parsed)
                    : Result<VettedTarget>(Error::PermissionDenied(std::string(kBlockedInternal)));
  if (!vetted) {
    page.error = vetted.error().message;
    return std::nullopt;
  }
  if (auto block = env.policy.check(url)) {
    page.error = block->message();
    page.policy_block = std::move(block);
    return std::nullopt;
  }
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline.at - std::chrono::steady_clock::now());
  if (left.count() <= 0) {
    page.error = timeout_error(url, env, deadline.by_call);
    return std::nullopt;
  }
  HttpLimits limits = env.limits;
  limits.total_timeout = left;
  limits.connect_timeout = std::min(limits.connect_timeout, left);
  Pin pin{parsed->host, parsed->port, vetted->addresses, &env.guard};
  HttpRequest request{parsed->text, "GET", {kAccept}, "", true, vetted->proxy};
  auto response = perform(request, limits, vetted->proxy.empty() ? &pin : nullptr, stop);
  if (!response) {
    page.error = transfer_error(response.error(), url, env, deadline.by_call);
    return std::nullopt;
  }
  return std::move(*response);
}

}  // namespace

FetchedPage fetch_page(const std::string& url, const PageFetchEnv& env, std::stop_token stop) {
  FetchedPage page;
  std::string current = url;
  HopDeadline deadline =
      hop_deadline(std::chrono::steady_clock::now() + env.limits.total_timeout, env);
  page.deadline = deadline.at;
  for (int hops = 0;; ++hops) {
    auto response = hop(current, env, deadline, stop, page);
    if (!response) return page;
    if (is_redirect(response->status) && !response->location.empty()) {
      if (hops >= env.max_redirects) {
        page.error = "Too many redirects (max " + std::to_string(env.max_redirects) + ")";
        return page;
      }
      auto next = resolve_url(current, response->location);
      if (!next) {
        page.error = "Could not fetch " + current + ": bad redirect location";
        return page;
      }
      current = *next;
      continue;
    }
    if (response->status < 200 || response->status > 299) {
      page.error = status_error(response->status, current);
      return page;
    }
    page.content_type = response->content_type;
    page.body = std::move(response->body);
    page.timeout_error = timeout_error(current, env, deadline.by_call);
    return page;
  }
}

}  // namespace hermes::web
