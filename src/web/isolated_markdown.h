// SPDX-License-Identifier: MIT
// HTML → markdown for pages off the network: html_to_markdown run in a
// forked child (proc/forked_call.h), because Gumbo is unmaintained C whose
// tree builder is quadratic in nesting depth (40,000 nested elements: half
// a minute of CPU) and whose faults would otherwise take the server down.
// The child gets what is left of the URL's time (also as RLIMIT_CPU), a
// memory cap where the build allows one, and a bounded pipe back.
#pragma once

#include "core/result.h"
#include "proc/forked_call.h"
#include "web/html_markdown.h"

#include <chrono>
#include <functional>
#include <stop_token>
#include <string>
#include <string_view>

namespace hermes::web {

// The markdown the child may send back: far above what a 10 MiB page
// legitimately gives, far below what a colspan or nesting bomb would.
constexpr size_t kMarkdownCap = 32u << 20;

// `work`, which parses `html_bytes` of HTML off the network, in a child
// under the converter's limits: `deadline`, `stop`, memory in proportion to
// the page, at most `output_cap` bytes back. Errors as run_forked's. The
// search backends parse their results pages through it too.
Result<std::string> run_html_child(const std::function<void(proc::ForkedOutput&)>& work,
                                   size_t html_bytes, size_t output_cap,
                                   std::chrono::steady_clock::time_point deadline,
                                   std::stop_token stop);

using HtmlConverter = HtmlDocument (*)(std::string_view html, const std::string& page_url);

// `convert(html, page_url)` in a child. Errors as run_forked's: kTimeout
// (`deadline` passed), kCancelled, kTooLarge (markdown over kMarkdownCap, or
// out of memory), kIo (the child crashed: the message names the signal).
// `convert` is a parameter for the tests, which need a converter that
// crashes.
Result<HtmlDocument> html_to_markdown_isolated(std::string_view html, const std::string& page_url,
                                               std::chrono::steady_clock::time_point deadline,
                                               std::stop_token stop,
                                               HtmlConverter convert = html_to_markdown);

}  // namespace hermes::web
