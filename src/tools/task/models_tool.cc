// SPDX-License-Identifier: MIT
// hermes_models' edge: reads the models cache and auth.json, builds the
// catalog, applies the provider / input_type / limit filters.
#include "core/capped_read.h"
#include "core/paths.h"
#include "core/strings.h"
#include "tools/task/iso_time.h"
#include "tools/task/models_catalog.h"
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

// `hermes model` caches a few hundred ids per provider: well under a megabyte.
constexpr size_t kMaxModelsCacheBytes = 16u << 20;

struct ModelsCache {
  Json doc;           // discarded when unusable
  std::string error;  // why, when the file exists but cannot be used
};

// A FIFO, a device, a directory or an oversized file at `path` is an error
// at once (read_capped_json), never a wait or an allocation.
ModelsCache load_models_cache(const std::string& path, std::stop_token stop) {
  auto doc = read_capped_json(path, kMaxModelsCacheBytes, stop);
  if (!doc) {
    std::string why = doc.error().code == ErrorCode::kNotFound
                          ? ""
                          : doc.error().message + "; using the capability map";
    return {Json(Json::value_t::discarded), why};
  }
  if (!doc->is_object()) {
    return {Json(Json::value_t::discarded), path + ": not a JSON object; using the capability map"};
  }
  return {std::move(doc).value(), ""};
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

void filter_input_type(std::vector<CatalogProvider>& providers, const std::string& type,
                       bool keep_empty) {
  std::vector<CatalogProvider> kept;
  for (CatalogProvider& p : providers) {
    std::erase_if(p.models, [&](const CatalogModel& m) {
      return std::find(m.input_types.begin(), m.input_types.end(), type) == m.input_types.end();
    });
    p.model_count = static_cast<int64_t>(p.models.size());
    if (keep_empty || p.model_count > 0) kept.push_back(std::move(p));
  }
  providers = std::move(kept);
}

Json models(const Json& args, CallContext& ctx) {
  if (auto wrong = wrong_typed_string(args, {"provider", "input_type", "models_cache_path"})) {
    return task_error_json(*wrong);
  }
  TaskConfig config = load_task_config(ctx.services.config);
  std::string cache_path = trim(string_arg(args, "models_cache_path").value_or(""));
  cache_path =
      cache_path.empty() ? config.models_cache_path : PathResolver::expand_user(cache_path);
  ModelsCache cache = load_models_cache(cache_path, ctx.stop);
  auto auth = read_auth(config.auth_path);
  Catalog catalog =
      build_catalog(CatalogInput{.models_cache = cache.doc.is_discarded() ? nullptr : &cache.doc,
                                 .auth = auth ? &*auth : nullptr,
                                 .config = config,
                                 .now_ms = now_epoch_ms()});
  std::string provider = trim(string_arg(args, "provider").value_or(""));
  if (!provider.empty()) {
    std::erase_if(catalog.providers,
                  [&](const CatalogProvider& p) { return p.provider != provider; });
    if (catalog.providers.empty()) {
      return task_error_json({.code = "provider_not_found",
                              .detail = "no models known for provider \"" + provider + "\""});
    }
  }
  std::string input_type = trim(string_arg(args, "input_type").value_or(""));
  if (!input_type.empty()) filter_input_type(catalog.providers, input_type, !provider.empty());
  auto limit = static_cast<size_t>(positive_int_arg(args, "limit", 10));
  Json list = Json::array();
  for (const CatalogProvider& p : catalog.providers) list.push_back(provider_json(p, limit));
  Json out{{"ok", true},
           {"source", catalog.source},
           {"fetched_at", catalog.fetched_at},
           {"count", list.size()},
           {"providers", list}};
  if (!cache.error.empty()) out["cache_error"] = cache.error;
  return out;
}

}  // namespace

ToolSpec hermes_models_spec() {
  ToolSpec spec;
  spec.name = "hermes_models";
  spec.toolset = "task";
  spec.description = kDescription;
  spec.input_schema = schema();
  spec.annotations = {
      .read_only = true, .destructive = false, .idempotent = true, .open_world = false};
  spec.handler = models;
  return spec;
}

}  // namespace hermes::task
