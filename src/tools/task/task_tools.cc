// SPDX-License-Identifier: MIT
// The four task tools' handlers, on typed values.
#include "tools/task/task_tools.h"

#include "core/paths.h"
#include "core/strings.h"
#include "json/capped_json.h"
#include "registry/progress_ticker.h"
#include "tools/task/auth_store.h"
#include "tools/task/iso_time.h"
#include "tools/task/task_cache.h"
#include "tools/task/task_config.h"

#include <algorithm>
#include <chrono>

namespace hermes::task {
namespace {

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

Catalog load_catalog(const ModelsParams& params, const TaskConfig& config, ModelsCache& cache,
                     std::stop_token stop) {
  std::string cache_path = params.models_cache_path.empty()
                               ? config.models_cache_path
                               : PathResolver::expand_user(params.models_cache_path);
  cache = load_models_cache(cache_path, stop);
  auto auth = read_auth(config.auth_path);
  return build_catalog(CatalogInput{.models_cache = cache.doc.is_discarded() ? nullptr : &cache.doc,
                                    .auth = auth ? &*auth : nullptr,
                                    .config = config,
                                    .now_ms = now_epoch_ms()});
}

}  // namespace

Result<TaskOutcome> hermes_task(TaskService& service, const TaskArgs& params,
                                registry::CallContext& ctx) {
  TaskConfig config = load_task_config(ctx.services.config);
  registry::ProgressTicker ticker(ctx.client, ctx.progress_token,
                                  std::chrono::milliseconds(config.progress_interval_ms),
                                  params.timeout_seconds);
  return service.run_task(params, config, ctx.stop);
}

Result<DetailOutcome> hermes_task_detail(TaskService& service, const DetailArgs& params,
                                         registry::CallContext& ctx) {
  DetailOutcome outcome = service.detail(params, load_task_config(ctx.services.config), ctx.stop);
  auto* found = std::get_if<DetailSuccess>(&outcome);
  if (found && found->record.result && params.max_bytes > 0) {
    std::string& result = *found->record.result;
    result = std::string(utf8_prefix(result, static_cast<size_t>(params.max_bytes)));
  }
  return outcome;
}

Result<ModelsOutput> hermes_models(const ModelsParams& params, registry::CallContext& ctx) {
  TaskConfig config = load_task_config(ctx.services.config);
  ModelsListing out;
  ModelsCache cache;
  out.catalog = load_catalog(params, config, cache, ctx.stop);
  out.cache_error = cache.error;
  auto& providers = out.catalog.providers;
  if (!params.provider.empty()) {
    std::erase_if(providers,
                  [&](const CatalogProvider& p) { return p.provider != params.provider; });
    if (providers.empty()) {
      return ModelsOutput{task_error("provider_not_found",
                                     "no models known for provider \"" + params.provider + "\"")};
    }
  }
  if (!params.input_type.empty()) {
    filter_input_type(providers, params.input_type, !params.provider.empty());
  }
  out.limit = static_cast<size_t>(params.limit);
  return ModelsOutput{std::move(out)};
}

Result<TelemetryReport> hermes_telemetry(const TelemetryWindow& params,
                                         registry::CallContext& ctx) {
  TaskConfig config = load_task_config(ctx.services.config);
  return aggregate_runs(TaskCache(config.cache_dir).load_all(), params);
}

}  // namespace hermes::task
