// SPDX-License-Identifier: MIT
// The JSON edge of web_search and web_extract: schemas, argument parsing
// (upstream's lenient clamping, strict where it was silent), results and
// the three failure envelopes.
#include "core/config.h"
#include "core/log.h"
#include "core/strings.h"
#include "json/json.h"
#include "registry/output_schema.h"
#include "registry/registry.h"
#include "registry/session.h"
#include "registry/tool_args.h"
#include "registry/typed_tool.h"
#include "tools/web/web_tools.h"
#include "web/backend_select.h"

#include <algorithm>

namespace hermes::web_tools {
namespace {

constexpr const char* kSearchSchema = R"JSON({"type": "object",
  "properties": {
   "query": {"type": "string", "description": "The search query to look up on the web. You may include backend-supported operators such as site:example.com, filetype:pdf, intitle:word, -term, or \"exact phrase\"."},
   "limit": {"type": "integer", "description": "Maximum number of results to return. Defaults to 5.", "minimum": 1, "maximum": 100, "default": 5}},
  "required": ["query"]})JSON";

constexpr const char* kSearchDescription =
    "Search the web for information. Returns up to 5 results by default with titles, URLs, and "
    "descriptions. "
    "The query is passed through to the configured backend, so operators such as site:domain, "
    "filetype:pdf, "
    "intitle:word, -term, and \"exact phrase\" may work when the backend supports them.";

constexpr const char* kExtractSchema = R"JSON({"type": "object",
  "properties": {
   "urls": {"type": "array", "items": {"type": "string"}, "description": "List of URLs to extract content from (max 5 URLs per call)", "maxItems": 5},
   "char_limit": {"type": "integer", "description": "Optional per-page character budget sent back (default 15000). Pages larger than this are head+tail truncated with the full text stored to disk. Raise it when you need more of a long page inline.", "minimum": 2000}},
  "required": ["urls"]})JSON";

constexpr const char* kExtractDescription =
    "Extract content from web page URLs. Returns clean page content in markdown/text (no LLM "
    "summarization — "
    "fast). Also works with PDF URLs (arxiv papers, documents) — pass the PDF link directly. Pages "
    "within the "
    "char budget (default 15000) return whole; larger pages return a head+tail window with a "
    "footer telling you "
    "the full text's saved file path and the read_file call to page through the omitted middle. "
    "Inline images "
    "appear as [IMAGE: alt] placeholders; real image URLs are kept as links. If a URL fails or "
    "times out, use "
    "the browser tool instead.";

constexpr const char* kBadItem =
    "expected a URL string or an object with a string 'url' or 'href' field";

Json failure(const Error& e) {
  if (e.code == ErrorCode::kCancelled) return Json{{"error", "Interrupted"}, {"success", false}};
  if (e.code == ErrorCode::kNotFound || e.code == ErrorCode::kIo) return Json{{"error", e.message}};
  return Json{{"success", false}, {"error", e.message}};
}

Result<SearchParams> search_params(const Json& args) {
  SearchParams p;
  if (auto q = args.find("query"); q != args.end() && q->is_string())
    p.query = q->get<std::string>();
  auto limit = args.contains("limit") ? registry::coerce_int(args["limit"]) : std::nullopt;
  p.limit = static_cast<int>(std::clamp<int64_t>(limit.value_or(5), 1, 100));
  return p;
}

Json search_json(const SearchOutput& out) {
  Json rows = Json::array();
  for (size_t i = 0; i < out.hits.size(); ++i) {
    const auto& h = out.hits[i];
    rows.push_back(
        {{"title", h.title}, {"url", h.url}, {"description", h.description}, {"position", i + 1}});
  }
  return {{"success", true}, {"data", {{"web", rows}}}};
}

Json shape(registry::Of<SearchOutput>) {
  using registry::key, registry::object_shape, registry::string_type;
  const Json hit = object_shape({
      key("title", string_type()),
      key("url", string_type()),
      key("description", string_type()),
      key("position", registry::integer_type()),
  });
  return object_shape({
      key("success", registry::boolean_type()),
      key("data", object_shape({key("web", registry::array_of(hit))})),
  });
}

ExtractItem item_of(const Json& item, size_t index) {
  const Json* url = &item;
  if (item.is_object()) {
    auto it = item.find("url");
    if (it == item.end() || !it->is_string()) it = item.find("href");
    url = it == item.end() ? nullptr : &*it;
  }
  if (url && url->is_string()) return {trim(url->get<std::string>()), ""};
  return {"", "Invalid URL item at index " + std::to_string(index) + ": " + kBadItem};
}

Result<ExtractParams> extract_params(const Json& args) {
  auto urls = args.find("urls");
  if (urls == args.end() || !(urls->is_array() || urls->is_string()))
    return Error::InvalidArgument("urls must be a list of URL strings");
  ExtractParams p;
  Json list = urls->is_string() ? Json::array({*urls}) : *urls;
  p.given = list.size();
  for (size_t i = 0; i < list.size() && i < 5; ++i) p.items.push_back(item_of(list[i], i));
  // Absent or null: the configured default; not a number: 15000.
  if (auto limit = args.find("char_limit"); limit != args.end() && !limit->is_null())
    p.char_limit = registry::coerce_int(*limit).value_or(15000);
  return p;
}

Json extract_json(const ExtractOutput& out) {
  Json rows = Json::array();
  for (const auto& e : out.results) {
    Json row = {{"url", e.url},
                {"title", e.title},
                {"content", e.content},
                {"error", e.error ? Json(*e.error) : Json(nullptr)}};
    if (e.blocked_by_policy)
      row["blocked_by_policy"] = {{"host", e.blocked_by_policy->host},
                                  {"rule", e.blocked_by_policy->rule},
                                  {"source", e.blocked_by_policy->source}};
    rows.push_back(std::move(row));
  }
  Json result = {{"results", rows}};
  if (!out.warning.empty()) result["_warning"] = out.warning;
  if (!out.hint.empty()) result["_hint"] = out.hint;
  return result;
}

Json shape(registry::Of<ExtractOutput>) {
  using registry::key, registry::object_shape, registry::string_type;
  const Json policy = object_shape({
      key("host", string_type()),
      key("rule", string_type()),
      key("source", string_type()),
  });
  const Json page = object_shape({
      key("url", string_type()),
      key("title", string_type()),
      key("content", string_type()),
      key("error", registry::nullable(string_type())),
      registry::optional_key("blocked_by_policy", policy),
  });
  return object_shape({
      key("results", registry::array_of(page)),
      registry::optional_key("_warning", string_type()),
      registry::optional_key("_hint", string_type()),
  });
}

bool offered(const registry::Services& services, web::Capability capability) {
  auto env = web::environment_with_dotenv(services.config.home());
  return !web::select_backend(services.config, env, capability).off;
}

}  // namespace

size_t extract_json_size(const ExtractOutput& output) {
  return dump_json(extract_json(output)).size();
}

void register_web(registry::Registry& registry) {
  auto fixtures = web::TestAllowlist::from_environment();
  if (!fixtures) {
    log::error(fixtures.error().message);
    std::exit(2);
  }
  if (!fixtures->empty()) log::warn("test loopback allowlist active: " + fixtures->describe());
  registry::ToolAnnotations annotations{
      .read_only = true, .destructive = false, .idempotent = false, .open_world = true};
  registry.add(registry::ToolSpec{
      .name = "web_search",
      .toolset = "web",
      .description = kSearchDescription,
      .input_schema = Json::parse(kSearchSchema),
      .output_schema = registry::output_schema<SearchOutput>([](auto of) { return shape(of); }),
      .annotations = annotations,
      .run = registry::typed_entry(
          registry::TypedTool<SearchParams, SearchOutput>{.parse = search_params,
                                                          .handler = web_search,
                                                          .render = search_json,
                                                          .render_error = failure}),
      .is_available = [](const registry::Services& s) {
        return offered(s, web::Capability::kSearch);
      }});
  registry.add(registry::ToolSpec{
      .name = "web_extract",
      .toolset = "web",
      .description = kExtractDescription,
      .input_schema = Json::parse(kExtractSchema),
      .output_schema = registry::output_schema<ExtractOutput>([](auto of) { return shape(of); }),
      .annotations = annotations,
      .run = registry::typed_entry(
          registry::TypedTool<ExtractParams, ExtractOutput>{.parse = extract_params,
                                                            .handler = web_extract,
                                                            .render = extract_json,
                                                            .render_error = failure}),
      .is_available = [](const registry::Services& s) {
        return offered(s, web::Capability::kExtract);
      }});
}

}  // namespace hermes::web_tools
