// SPDX-License-Identifier: MIT
// Builds TaskConfig from Config: defaults, file keys and env overrides.
#include "tools/task/task_config.h"

#include "core/config.h"
#include "core/paths.h"
#include "core/strings.h"

#include <algorithm>
#include <cstdlib>

namespace hermes::task {
namespace {

std::string home_of(const Config& config) {
  return config.home().empty() ? Config::default_home() : config.home();
}

// A size or duration key; non-positive values keep the default.
int64_t positive(const Config& config, const std::string& key, int64_t fallback,
                 std::string_view env = {}) {
  int64_t value = config.get_int("task_server." + key, fallback, env);
  return value > 0 ? value : fallback;
}

std::string path_key(const Config& config, const std::string& key, const std::string& fallback,
                     std::string_view env = {}) {
  return PathResolver::expand_user(config.get_string("task_server." + key, fallback, env));
}

void load_capability_rows(const Config& config, CapabilityMap& map) {
  for (const std::string& cap : known_capabilities()) {
    std::string key = "task_server.capability_map." + cap;
    if (!config.has(key)) continue;
    std::vector<ProviderModel> rows;
    for (const std::string& entry : config.get_string_list(key)) {
      ProviderModel row = parse_provider_model(entry);
      if (!row.provider.empty() && !row.model.empty()) rows.push_back(row);
    }
    map[cap] = rows;
  }
}

std::vector<std::string> cwd_allowlist(const Config& config) {
  std::vector<std::string> out = config.get_string_list("task_server.cwd_allowlist");
  if (const char* env = std::getenv("HERMES_TASK_CWD_ALLOWLIST"); env && *env) {
    out = split(env, ',');
  }
  for (std::string& dir : out) dir = PathResolver::expand_user(dir);
  return out;
}

}  // namespace

TaskConfig load_task_config(const Config& config) {
  TaskConfig c;
  const std::string home = home_of(config);
  c.auth_path = path_key(config, "auth_path", home + "/auth.json", "HERMES_AUTH_PATH");
  c.hermes_bin = config.get_string("task_server.hermes_bin", c.hermes_bin, "HERMES_BIN");
  c.cache_dir = path_key(config, "cache_dir", home + "/hermes-task-cache");
  c.models_cache_path = path_key(config, "models_cache_path", home + "/provider_models_cache.json");
  c.spawn_cwd = path_key(config, "spawn_cwd", "");
  c.cwd_allowlist = cwd_allowlist(config);
  c.reset_window_ms = positive(config, "reset_window_ms", c.reset_window_ms);
  // 0 disables forgiveness, so only negative values are refused.
  c.exhausted_forgive_ttl_ms = std::max<int64_t>(
      0, config.get_int("task_server.exhausted_forgive_ttl_ms", c.exhausted_forgive_ttl_ms));
  c.max_result_bytes = positive(config, "max_result_bytes", c.max_result_bytes);
  c.max_digest_result_bytes =
      positive(config, "max_digest_result_bytes", c.max_digest_result_bytes);
  c.default_output_mode = config.get_string("task_server.default_output_mode", "digest") == "full"
                              ? OutputMode::kFull
                              : OutputMode::kDigest;
  c.max_error_detail_bytes = positive(config, "max_error_detail_bytes", c.max_error_detail_bytes);
  c.max_prompt_length =
      positive(config, "max_prompt_length", c.max_prompt_length, "HERMES_MAX_PROMPT_LENGTH");
  c.max_tool_call_args_bytes =
      positive(config, "max_tool_call_args_bytes", c.max_tool_call_args_bytes);
  c.max_tool_call_result_bytes =
      positive(config, "max_tool_call_result_bytes", c.max_tool_call_result_bytes);
  c.max_tool_calls = positive(config, "max_tool_calls", c.max_tool_calls);
  c.session_export_timeout_ms =
      positive(config, "session_export_timeout_ms", c.session_export_timeout_ms);
  c.kill_grace_ms = positive(config, "kill_grace_ms", c.kill_grace_ms);
  c.lock_timeout_ms = positive(config, "lock_timeout_ms", c.lock_timeout_ms);
  c.max_capture_bytes = positive(config, "max_capture_bytes", c.max_capture_bytes);
  c.progress_interval_ms = positive(config, "progress_interval_ms", c.progress_interval_ms);
  c.yolo = config.get_bool("task_server.yolo", c.yolo);
  if (config.has("task_server.tiebreak_order")) {
    c.tiebreak_order = config.get_string_list("task_server.tiebreak_order");
  }
  load_capability_rows(config, c.capability_map);
  return c;
}

}  // namespace hermes::task
