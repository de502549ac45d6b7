// SPDX-License-Identifier: MIT
#include "core/strings.h"
#include "tools/web/web_tools.h"
#include "web/backend_select.h"

namespace hermes::web_tools {

Result<SearchOutput> web_search(const SearchParams& params, registry::CallContext& ctx) {
  auto run = [&](WebService& service) { return run_search(params, service, ctx.stop); };
  return with_web_service<SearchOutput>(ctx, "Error searching web: ", run);
}

Result<SearchOutput> run_search(const SearchParams& params, WebService& service,
                                std::stop_token stop) {
  if (trim(params.query).empty()) return Error::InvalidArgument("query must be a non-empty string");
  if (stop.stop_requested()) return Error::Cancelled("Interrupted");
  web::Selection selection =
      web::select_backend(service.config(), service.env(), web::Capability::kSearch);
  if (!selection.error.empty()) return Error::Unavailable(selection.error);
  auto backend = web::make_search_backend(selection.name, service.config(), service.env());
  if (!backend)
    return Error::Unavailable(
        "No web search provider configured. Run `hermes tools` to set one up.");
  int asked = bucketed_limit(params.limit);
  std::string key =
      selection.name + "\n" + normalized_query(params.query) + "\n" + std::to_string(asked);
  SearchHits hits =
      service.searches().get(key, [&] { return backend->search(params.query, asked, stop); });
  if (!hits) return hits.error();
  SearchOutput out;
  out.hits = std::move(*hits);
  if (out.hits.size() > static_cast<size_t>(params.limit))
    out.hits.resize(static_cast<size_t>(params.limit));
  return out;
}

}  // namespace hermes::web_tools
