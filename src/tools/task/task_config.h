// SPDX-License-Identifier: MIT
// The task server's settings: the reference's `lib/config.js` defaults, read
// from our config file under `task_server.*` plus the seed's env overrides.
#pragma once

#include "tools/task/capability_map.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hermes {
class Config;
}  // namespace hermes

namespace hermes::task {

enum class OutputMode { kDigest, kFull };

struct TaskConfig {
  std::string auth_path;              // HERMES_AUTH_PATH, default <home>/auth.json
  std::string hermes_bin = "hermes";  // HERMES_BIN
  std::string cache_dir;              // <home>/hermes-task-cache
  std::string models_cache_path;      // <home>/provider_models_cache.json
  std::string spawn_cwd;              // empty: the server's cwd
  // Directories a `cwd` argument may name (compared on real paths, a
  // directory below an entry is allowed). Empty denies every `cwd`.
  std::vector<std::string> cwd_allowlist;
  int64_t reset_window_ms = 24LL * 3600 * 1000;
  int64_t exhausted_forgive_ttl_ms = 6LL * 3600 * 1000;
  int64_t max_result_bytes = 204800;
  int64_t max_digest_result_bytes = 8192;
  OutputMode default_output_mode = OutputMode::kDigest;
  int64_t max_error_detail_bytes = 500;
  int64_t max_prompt_length = 4000;  // code points
  int64_t max_tool_call_args_bytes = 2048;
  int64_t max_tool_call_result_bytes = 8192;
  int64_t max_tool_calls = 50;
  int64_t session_export_timeout_ms = 15000;
  int64_t kill_grace_ms = 5000;
  int64_t lock_timeout_ms = 200;
  // Bound on captured agent stdout (the cached "full" result) per run.
  int64_t max_capture_bytes = 16LL * 1024 * 1024;
  // Between MCP progress notifications (only sent for a progressToken).
  int64_t progress_interval_ms = 5000;
  // Sets HERMES_YOLO_MODE=1 for the child; off, as the reference.
  bool yolo = false;
  std::vector<std::string> tiebreak_order = {"nvidia", "huggingface", "gemini", "kimi-coding"};
  CapabilityMap capability_map = default_capability_map();
};

// Reads `task_server.*` from `config` (home = `config.home()`), applying
// HERMES_AUTH_PATH, HERMES_BIN, HERMES_MAX_PROMPT_LENGTH (positive only) and
// HERMES_TASK_CWD_ALLOWLIST. `task_server.capability_map.<cap>` replaces a
// capability's rows (a list of `provider/model`). Bad values fall back to the
// defaults with a warning, never an error.
TaskConfig load_task_config(const Config& config);

}  // namespace hermes::task
