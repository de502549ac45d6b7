// SPDX-License-Identifier: MIT
// What a fetched body says, as text a model can read: HTML through the
// markdown writer (in a forked child bounded by the URL's time:
// web/isolated_markdown.h), text decoded to UTF-8, PDF through pdftotext (a
// bounded child, as read_file runs it), and a clear refusal for binary
// payloads.
#pragma once

#include <chrono>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>

namespace hermes::web {

struct PageContent {
  std::string title;
  std::string content;
  std::string error;  // empty on success
};

// How long converting may take: what is left of the URL's time.
struct ContentDeadline {
  std::chrono::steady_clock::time_point at = std::chrono::steady_clock::time_point::max();
  std::string timeout_error;  // the page's error when `at` passes
};

// `body` served as `content_type` from `url` (the final URL, for links).
PageContent page_content(std::string_view body, std::string_view content_type,
                         const std::string& url, const ContentDeadline& deadline,
                         std::stop_token stop);

// The type name of a binary payload by its leading bytes (`PNG image data`,
// `ZIP archive`, `SQLite database`, …); PDF is not one of them.
std::optional<std::string> binary_type(std::string_view head);

// The refusal for a binary payload of `type`.
std::string binary_error(const std::string& type);

}  // namespace hermes::web
