// SPDX-License-Identifier: MIT
// web_search and web_extract: typed parameters and outputs, handlers that
// return Result<Output>; web_json.cc is the JSON edge. Whole-call failures
// carry an ErrorCode: kInvalidArgument / kPermissionDenied / kUnavailable
// are `{"success": false, "error"}`, kNotFound and kIo are `{"error"}`,
// kCancelled is `Interrupted`.
#pragma once

#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "core/result.h"
#include "tools/web/web_service.h"
#include "web/backend.h"

namespace hermes::web_tools {

struct SearchParams {
  std::string query;
  int limit = 5;  // clamped to [1, 100]
};

struct SearchOutput {
  std::vector<web::SearchHit> hits;
};

Result<SearchOutput> web_search(const SearchParams& params, WebService& service, std::stop_token stop);

struct ExtractItem {
  std::string url;    // trimmed, as given
  std::string error;  // set for an unusable item
};

struct ExtractParams {
  std::vector<ExtractItem> items;  // at most 5
  size_t given = 0;                // how many the caller sent
  int64_t char_limit = 15000;      // clamped to [2000, 500000]
};

struct ExtractEntry {
  std::string url;
  std::string title;
  std::string content;
  std::optional<std::string> error;
  std::optional<web::PolicyBlock> blocked_by_policy;
};

struct ExtractOutput {
  std::vector<ExtractEntry> results;
  std::string warning;  // more than 5 URLs given
  std::string hint;     // the per-page budget was lowered to fit the result cap
};

Result<ExtractOutput> web_extract(const ExtractParams& params, WebService& service, std::stop_token stop);

// The result cap of either tool, in characters of JSON.
inline constexpr size_t kResultCap = 100'000;

}  // namespace hermes::web_tools

namespace hermes::web_tools {
// The length of `output` as the tool's JSON text (web_json.cc).
size_t extract_json_size(const ExtractOutput& output);
}  // namespace hermes::web_tools
