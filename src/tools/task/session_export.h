// SPDX-License-Identifier: MIT
// `hermes sessions export --format jsonl`: running it, and turning its JSONL
// into the digest counters and the capped tool-call list.
#pragma once

#include "core/result.h"
#include "json/json.h"
#include "tools/task/agent_runner.h"
#include "tools/task/task_config.h"

#include <cstdint>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

namespace hermes::task {

struct ToolCallCaps {
  size_t args_bytes = 2048;
  size_t result_bytes = 8192;
  size_t max_calls = 50;
};

struct ExportSummary {
  // `{id, name, arguments, result}` in invocation order, at most max_calls.
  Json tool_calls = Json::array();
  std::optional<int64_t> tool_call_count;  // the session row's counters
  std::optional<int64_t> api_call_count;
  std::optional<int64_t> message_count;
  std::vector<std::string> tools_used;  // unique names, first-seen order
  std::string provider;                 // billing_provider, may be empty
  std::string model;
};

// Parses export output: one JSON object per line; the object whose `id` is
// `session_id` (or starts with it, as Hermes accepts prefixes) wins, noise
// lines are skipped. kInvalidArgument when no session object is found.
Result<ExportSummary> parse_session_export(std::string_view jsonl, const std::string& session_id,
                                           const ToolCallCaps& caps);

// Caps `text` at `max_bytes` on a code-point boundary, appending
// `... [truncated]` when cut.
std::string cap_text(std::string_view text, size_t max_bytes);

// Runs `<bin> sessions export --format jsonl --session-id <id> - --yes` with
// the configured timeout and parses it. kUnavailable carries the reference's
// `exit=N timedOut=B` text (plus stderr) when the command fails.
Result<ExportSummary> export_session(AgentRunner& runner, const TaskConfig& config,
                                     const std::string& session_id, std::stop_token stop);

}  // namespace hermes::task
