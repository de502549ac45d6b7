// SPDX-License-Identifier: MIT
// web_search and web_extract: typed parameters and outputs, handlers that
// return Result<Output> (registry/typed_tool.h); web_json.cc is the JSON
// edge. Whole-call failures carry an ErrorCode: kInvalidArgument /
// kPermissionDenied / kUnavailable are `{"success": false, "error"}`,
// kNotFound and kIo are `{"error"}`, kCancelled is `Interrupted`.
#pragma once

#include "core/result.h"
#include "registry/tool.h"
#include "tools/web/web_service.h"
#include "web/backend.h"

#include <exception>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace hermes::registry {
class Registry;
}  // namespace hermes::registry

namespace hermes::web_tools {

struct SearchParams {
  std::string query;
  int limit = 5;  // clamped to [1, 100]
};

struct SearchOutput {
  std::vector<web::SearchHit> hits;
};

// The tool's handler (`Error searching web: <what>` for an exception).
Result<SearchOutput> web_search(const SearchParams& params, registry::CallContext& ctx);
Result<SearchOutput> run_search(const SearchParams& params, WebService& service,
                                std::stop_token stop);

struct ExtractItem {
  std::string url;    // trimmed, as given
  std::string error;  // set for an unusable item
};

struct ExtractParams {
  std::vector<ExtractItem> items;  // at most 5
  size_t given = 0;                // how many the caller sent
  // As asked; nullopt: `web.extract_char_limit`. Clamped to [2000, 500000].
  std::optional<int64_t> char_limit;
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

// The tool's handler, as web_search's (`Error extracting content: <what>`).
Result<ExtractOutput> web_extract(const ExtractParams& params, registry::CallContext& ctx);
Result<ExtractOutput> run_extract(const ExtractParams& params, WebService& service,
                                  std::stop_token stop);

// Runs `body` on the session's WebService; an unexpected exception becomes
// `<prefix><what>` in the `{"error"}` envelope, as upstream's tool wrapper.
template <class Output, class Body>
Result<Output> with_web_service(registry::CallContext& ctx, const char* prefix, Body body) {
  WebService& service = web_service(ctx.session, ctx.services.config);
  try {
    return body(service);
  } catch (const std::exception& e) {
    return Error::Io(prefix + std::string(e.what()));
  }
}

// The result cap of either tool, in characters of JSON.
inline constexpr size_t kResultCap = 100'000;

// The length of `output` as the tool's JSON text (web_json.cc).
size_t extract_json_size(const ExtractOutput& output);

// Registers web_search and web_extract (web_json.cc).
void register_web(registry::Registry& registry);

}  // namespace hermes::web_tools
