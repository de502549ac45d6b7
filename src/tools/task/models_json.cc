// SPDX-License-Identifier: MIT
// hermes_models at the JSON edge: schema, arguments, the catalog's JSON.
#include "core/strings.h"
#include "registry/typed_tool.h"
#include "tools/task/task_json.h"
#include "tools/task/task_tools.h"

namespace hermes::task {
namespace {

constexpr const char* kDescription =
    "Look up valid providers/models known to Hermes at runtime. Reads "
    "~/.hermes/provider_models_cache.json (maintained by `hermes model`) merged with auth.json "
    "credential liveness and capability-map fallback. Each model is tagged with capabilities, "
    "supported input_types (attached files: image/pdf/video/audio) and is_default. Cannot "
    "refresh programmatically (hermes model requires a TTY); fetched_at shows cache freshness.";

Json schema() {
  return Json::parse(R"json({
    "type": "object",
    "properties": {
      "provider": {"type": "string", "description": "Filter by provider name (exact; e.g. gemini, opencode-zen)"},
      "input_type": {"type": "string", "enum": ["text", "image", "pdf", "audio", "video"], "description": "Filter models by supported attached-file input type"},
      "limit": {"type": "number", "description": "Max models listed per provider", "default": 10},
      "models_cache_path": {"type": "string", "description": "Override path to provider_models_cache.json"}
    }
  })json");
}

Json model_json(const CatalogModel& m) {
  return Json{{"id", m.id},
              {"capabilities", m.capabilities},
              {"input_types", m.input_types},
              {"is_default", m.is_default}};
}

Json provider_json(const CatalogProvider& p, size_t limit) {
  Json models = Json::array();
  for (size_t i = 0; i < p.models.size() && i < limit; ++i)
    models.push_back(model_json(p.models[i]));
  return Json{{"provider", p.provider},
              {"status", p.status},
              {"last_status", p.last_status},
              {"last_error_code", p.last_error_code},
              {"fetched_at", p.fetched_at},
              {"source", p.source},
              {"model_count", p.model_count},
              {"default_model", p.default_model.empty() ? Json() : Json(p.default_model)},
              {"models", models}};
}

Json listing_json(const ModelsListing& listing) {
  Json list = Json::array();
  for (const CatalogProvider& p : listing.catalog.providers) {
    list.push_back(provider_json(p, listing.limit));
  }
  Json out{{"ok", true},
           {"source", listing.catalog.source},
           {"fetched_at", listing.catalog.fetched_at},
           {"count", list.size()},
           {"providers", list}};
  if (!listing.cache_error.empty()) out["cache_error"] = listing.cache_error;
  return out;
}

Json shape(registry::Of<ModelsListing>) {
  using registry::any_value, registry::array_of, registry::integer_type, registry::string_type;
  const Json strings = array_of(string_type());
  const Json model = registry::object_shape({
      registry::key("id", string_type()),
      registry::key("capabilities", strings),
      registry::key("input_types", strings),
      registry::key("is_default", registry::boolean_type()),
  });
  // last_status, last_error_code and fetched_at are auth.json's and the
  // cache's own values, passed through.
  const Json provider = registry::object_shape({
      registry::key("provider", string_type()),
      registry::key("status", string_type()),
      registry::key("last_status", any_value()),
      registry::key("last_error_code", any_value()),
      registry::key("fetched_at", any_value()),
      registry::key("source", string_type()),
      registry::key("model_count", integer_type()),
      registry::key("default_model", registry::nullable(string_type())),
      registry::key("models", array_of(model)),
  });
  return registry::object_shape({
      registry::key("ok", registry::boolean_type()),
      registry::key("source", string_type()),
      registry::key("fetched_at", any_value()),
      registry::key("count", integer_type()),
      registry::key("providers", array_of(provider)),
      registry::optional_key("cache_error", string_type()),
  });
}

Result<ModelsParams> parse_args(const Json& args) {
  HERMES_TRY(check_string_types(args, {"provider", "input_type", "models_cache_path"}));
  return ModelsParams{
      .provider = trim(string_arg(args, "provider").value_or("")),
      .input_type = trim(string_arg(args, "input_type").value_or("")),
      .limit = positive_int_arg(args, "limit", 10),
      .models_cache_path = trim(string_arg(args, "models_cache_path").value_or(""))};
}

}  // namespace

registry::ToolSpec hermes_models_spec() {
  registry::ToolSpec spec;
  spec.name = "hermes_models";
  spec.toolset = "task";
  spec.description = kDescription;
  spec.input_schema = schema();
  spec.output_schema = registry::output_schema<ModelsOutput>([](auto of) { return shape(of); });
  spec.annotations = {
      .read_only = true, .destructive = false, .idempotent = true, .open_world = false};
  spec.run = registry::typed_entry(registry::TypedTool<ModelsParams, ModelsOutput>{
      .parse = parse_args,
      .handler = hermes_models,
      .render = outcome_json<ModelsListing, listing_json>,
      .failure = task_failure<ModelsListing>,
      .render_error = invalid_args_json,
  });
  return spec;
}

}  // namespace hermes::task
