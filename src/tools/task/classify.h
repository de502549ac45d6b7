// SPDX-License-Identifier: MIT
// Reading an agent run: its outcome class, the session id it printed, and
// the pieces of stderr quoted back to the caller.
#pragma once

#include "tools/task/agent_runner.h"

#include <optional>
#include <string>
#include <string_view>

namespace hermes::task {

enum class RunClass { kSuccess, kSpawnFailed, kTimeout, kRateLimited, kUnknown };

// The contract's error code (`spawn_failed`, `timeout`, `rate_limited`,
// `unknown`); empty for success.
std::string error_code_of(RunClass run_class);

// In order: spawn failure; timeout; a failed run (exit ≠ 0, a signal, or a
// cancel) whose stderr names a rate limit → rate_limited, else unknown;
// success otherwise. A successful run is never rate_limited, whatever its
// stderr says (a session id like `20260429_…` contains "429").
RunClass classify_run(const AgentResult& run);

// True when `stderr_text` holds `429` as a standalone token (not inside a
// longer run of letters, digits or `_`), `RateLimitError` or
// `FreeUsageLimitError`. The `session_id:` line is ignored.
bool mentions_rate_limit(std::string_view stderr_text);

// The last stderr line of the form `session_id: YYYYMMDD_HHMMSS_<6 hex>`
// (Hermes' documented format). stdout is never consulted: it is the model's
// answer and may contain anything.
std::optional<std::string> parse_session_id(std::string_view stderr_text);

// The last `max_lines` non-empty lines joined by " | " (auth.json message).
std::string last_lines(std::string_view text, size_t max_lines);

// stderr for `error_detail`: without the session-id trailer, trimmed, the
// last `max_bytes` bytes cut on a code-point boundary (the error is at the
// end; warnings come first).
std::string error_detail_of(std::string_view stderr_text, size_t max_bytes);

}  // namespace hermes::task
