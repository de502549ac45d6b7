// SPDX-License-Identifier: MIT
// Export parsing and tool-call pairing (assistant `tool_calls` with the
// `role: tool` rows whose `tool_call_id` matches).
#include "tools/task/session_export.h"

#include "core/strings.h"
#include "json/json_parse.h"
#include "tools/task/classify.h"

#include <algorithm>
#include <cstring>
#include <map>

namespace hermes::task {
namespace {

const Json& field(const Json& object, const char* key) {
  static const Json kNull;
  if (!object.is_object()) return kNull;
  auto it = object.find(key);
  return it == object.end() ? kNull : *it;
}

std::string text_of(const Json& value) {
  return value.is_string() ? value.get<std::string>() : dump_json(value);
}

std::optional<int64_t> count_of(const Json& value) {
  if (value.is_number_integer()) return value.get<int64_t>();
  if (value.is_number()) return static_cast<int64_t>(value.get<double>());
  return std::nullopt;
}

// Capped tool outputs keyed by tool_call_id. Empty content pairs to null.
std::map<std::string, std::string> tool_results(const Json& messages, size_t cap) {
  std::map<std::string, std::string> out;
  for (const Json& msg : messages) {
    const Json& id = field(msg, "tool_call_id");
    const Json& content = field(msg, "content");
    if (field(msg, "role") != "tool" || !id.is_string() || content.is_null()) continue;
    std::string text = text_of(content);
    if (!text.empty()) out[id.get<std::string>()] = cap_text(text, cap);
  }
  return out;
}

Json parse_maybe(const std::string& text) {
  auto parsed = parse_json(text);
  return parsed ? std::move(parsed).value() : Json(text);
}

Json tool_call_entry(const Json& call, const std::map<std::string, std::string>& results,
                     const ToolCallCaps& caps) {
  const Json& fn = field(call, "function");
  Json id = field(call, "id").is_string() ? field(call, "id") : field(call, "call_id");
  const Json& raw_args = field(fn, "arguments");
  Json entry;
  entry["id"] = id.is_string() ? id : Json();
  entry["name"] = field(fn, "name").is_string() ? field(fn, "name") : Json();
  entry["arguments"] =
      raw_args.is_null() ? Json() : parse_maybe(cap_text(text_of(raw_args), caps.args_bytes));
  entry["result"] = Json();
  for (const Json* key : {&field(call, "id"), &field(call, "call_id")}) {
    if (!key->is_string()) continue;
    if (auto it = results.find(key->get<std::string>()); it != results.end()) {
      entry["result"] = it->second;
      break;
    }
  }
  return entry;
}

void collect_calls(const Json& messages, const ToolCallCaps& caps, ExportSummary& out) {
  auto results = tool_results(messages, caps.result_bytes);
  for (const Json& msg : messages) {
    const Json& calls = field(msg, "tool_calls");
    if (field(msg, "role") != "assistant" || !calls.is_array()) continue;
    for (const Json& call : calls) {
      const Json& name = field(field(call, "function"), "name");
      if (name.is_string() && std::find(out.tools_used.begin(), out.tools_used.end(),
                                        name.get<std::string>()) == out.tools_used.end()) {
        out.tools_used.push_back(name.get<std::string>());
      }
      if (!field(call, "function").is_object()) continue;
      if (out.tool_calls.size() < caps.max_calls) {
        out.tool_calls.push_back(tool_call_entry(call, results, caps));
      }
    }
  }
}

// The session object among the export's lines, or a discarded Json.
Json find_session_object(std::string_view jsonl, const std::string& session_id) {
  Json fallback(Json::value_t::discarded);
  while (!jsonl.empty()) {
    size_t nl = jsonl.find('\n');
    std::string line = trim(jsonl.substr(0, nl));
    jsonl.remove_prefix(nl == std::string_view::npos ? jsonl.size() : nl + 1);
    if (line.empty() || line.front() != '{') continue;
    auto parsed = parse_json(line);
    if (!parsed || !parsed->is_object()) continue;
    Json obj = std::move(parsed).value();
    const Json& id = field(obj, "id");
    if (id.is_string() && starts_with(id.get<std::string>(), session_id)) return obj;
    if (field(obj, "messages").is_array()) fallback = std::move(obj);
  }
  return fallback;
}

}  // namespace

std::string cap_text(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  return std::string(utf8_prefix(text, max_bytes)) + "... [truncated]";
}

Result<ExportSummary> parse_session_export(std::string_view jsonl, const std::string& session_id,
                                           const ToolCallCaps& caps) {
  Json session = find_session_object(jsonl, session_id);
  if (session.is_discarded()) {
    return Error::InvalidArgument("export printed no session object for " + session_id);
  }
  ExportSummary out;
  out.tool_call_count = count_of(field(session, "tool_call_count"));
  out.api_call_count = count_of(field(session, "api_call_count"));
  out.message_count = count_of(field(session, "message_count"));
  for (const char* key : {"provider", "billing_provider"}) {
    if (out.provider.empty() && field(session, key).is_string())
      out.provider = field(session, key).get<std::string>();
  }
  if (field(session, "model").is_string()) out.model = field(session, "model").get<std::string>();
  const Json& messages = field(session, "messages");
  if (messages.is_array()) collect_calls(messages, caps, out);
  return out;
}

Result<ExportSummary> export_session(AgentRunner& runner, const TaskConfig& config,
                                     const std::string& session_id, std::stop_token stop) {
  AgentRun request;
  request.argv = {config.hermes_bin, "sessions", "export", "--format", "jsonl",
                  "--session-id",    session_id, "-",      "--yes"};
  request.cwd = config.spawn_cwd;
  request.timeout = std::chrono::milliseconds(config.session_export_timeout_ms);
  request.kill_grace = std::chrono::milliseconds(std::min<int64_t>(config.kill_grace_ms, 1000));
  request.max_stdout_bytes = static_cast<size_t>(config.max_capture_bytes);
  AgentResult run = runner.run(request, stop);
  if (run.spawn_failed || run.timed_out || run.exit_code != 0) {
    std::string exit = run.exit_code ? std::to_string(*run.exit_code) : "null";
    std::string detail = "exit=" + exit + " timedOut=" + (run.timed_out ? "true" : "false");
    std::string why = run.spawn_failed ? std::string(std::strerror(run.spawn_errno))
                                       : error_detail_of(run.stderr_text, 200);
    return Error::Unavailable(why.empty() ? detail : detail + " (" + why + ")");
  }
  ToolCallCaps caps{static_cast<size_t>(config.max_tool_call_args_bytes),
                    static_cast<size_t>(config.max_tool_call_result_bytes),
                    static_cast<size_t>(config.max_tool_calls)};
  return parse_session_export(run.stdout_text, session_id, caps);
}

}  // namespace hermes::task
