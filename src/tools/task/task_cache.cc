// SPDX-License-Identifier: MIT
// Cache records <-> JSON (tolerant of missing or mistyped fields) and the
// directory scan.
#include "tools/task/task_cache.h"

#include "core/strings.h"
#include "fs/atomic_write.h"
#include "json/capped_json.h"
#include "registry/output_schema.h"

#include <dirent.h>

#include <algorithm>

namespace hermes::task {
namespace {

// A record holds one run's whole stdout (at most 16 MiB) and its tool calls;
// a file past this was not written by a task tool.
constexpr size_t kMaxRecordBytes = 64u << 20;

const Json& field(const Json& object, const char* key) {
  static const Json kNull;
  auto it = object.find(key);
  return it == object.end() ? kNull : *it;
}

std::optional<std::string> opt_string(const Json& value) {
  if (value.is_string() && !value.get_ref<const std::string&>().empty())
    return value.get<std::string>();
  return std::nullopt;
}

std::optional<int64_t> opt_int(const Json& value) {
  if (value.is_number_integer()) return value.get<int64_t>();
  if (value.is_number()) return static_cast<int64_t>(value.get<double>());
  return std::nullopt;
}

template <class T>
Json or_null(const std::optional<T>& value) {
  return value ? Json(*value) : Json();
}

std::optional<Digest> digest_from_json(const Json& value) {
  if (!value.is_object()) return std::nullopt;
  Digest d;
  d.tool_call_count = opt_int(field(value, "tool_call_count")).value_or(0);
  d.api_call_count = opt_int(field(value, "api_call_count"));
  d.message_count = opt_int(field(value, "message_count"));
  for (const Json& tool :
       field(value, "tools_used").is_array() ? field(value, "tools_used") : Json::array()) {
    d.tools_used.push_back(tool.is_string() ? tool.get<std::string>() : dump_json(tool));
  }
  return d;
}

Json record_to_json(const TaskRecord& r) {
  Json j;
  j["task_id"] = r.task_id;
  j["session_id"] = or_null(r.session_id);
  j["provider"] = or_null(r.provider);
  j["model"] = or_null(r.model);
  j["output_mode"] = r.output_mode;
  j["result"] = or_null(r.result);
  j["tool_calls"] = r.tool_calls;
  j["digest"] = digest_to_json(r.digest);
  j["prompt_len"] = or_null(r.prompt_len);
  j["exit_code"] = or_null(r.exit_code);
  j["duration_ms"] = or_null(r.duration_ms);
  j["created_at"] = r.created_at;
  return j;
}

std::optional<TaskRecord> record_from_json(const Json& j) {
  if (!j.is_object()) return std::nullopt;
  TaskRecord r;
  r.task_id = opt_string(field(j, "task_id")).value_or("");
  r.session_id = opt_string(field(j, "session_id"));
  r.provider = opt_string(field(j, "provider"));
  r.model = opt_string(field(j, "model"));
  r.output_mode = opt_string(field(j, "output_mode")).value_or("full");
  if (field(j, "result").is_string()) r.result = field(j, "result").get<std::string>();
  r.tool_calls = field(j, "tool_calls").is_array() ? field(j, "tool_calls") : Json();
  r.digest = digest_from_json(field(j, "digest"));
  r.prompt_len = opt_int(field(j, "prompt_len"));
  r.exit_code = opt_int(field(j, "exit_code"));
  r.duration_ms = opt_int(field(j, "duration_ms"));
  r.created_at = opt_string(field(j, "created_at")).value_or("");
  return r;
}

}  // namespace

bool is_valid_id(std::string_view id) {
  if (id.empty() || id.size() > 128) return false;
  return std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           c == '-';
  });
}

Json digest_to_json(const std::optional<Digest>& digest) {
  if (!digest) return Json();
  Json j;
  j["tool_call_count"] = digest->tool_call_count;
  j["api_call_count"] = or_null(digest->api_call_count);
  j["message_count"] = or_null(digest->message_count);
  j["tools_used"] = digest->tools_used;
  return j;
}

Json digest_shape() {
  using registry::integer_type, registry::nullable;
  return nullable(registry::object_shape({
      registry::key("tool_call_count", integer_type()),
      registry::key("api_call_count", nullable(integer_type())),
      registry::key("message_count", nullable(integer_type())),
      registry::key("tools_used", registry::array_of(registry::string_type())),
  }));
}

Status TaskCache::write(const TaskRecord& record) const {
  if (!is_valid_id(record.task_id))
    return Error::InvalidArgument("invalid task_id \"" + record.task_id + "\"");
  std::string text = record_to_json(record).dump(2, ' ', false, Json::error_handler_t::replace);
  auto written = fs::atomic_write(dir_ + "/" + record.task_id + ".json", text);
  if (!written) return written.error();
  return {};
}

std::optional<TaskRecord> TaskCache::read(const std::string& task_id) const {
  if (!is_valid_id(task_id)) return std::nullopt;
  auto doc = read_capped_json(dir_ + "/" + task_id + ".json", kMaxRecordBytes);
  if (!doc) return std::nullopt;
  return record_from_json(*doc);
}

std::vector<std::string> TaskCache::record_files() const {
  std::vector<std::string> ids;
  DIR* dir = ::opendir(dir_.c_str());
  if (!dir) return ids;
  while (dirent* ent = ::readdir(dir)) {
    std::string name = ent->d_name;
    if (ends_with(name, ".json")) ids.push_back(name.substr(0, name.size() - 5));
  }
  ::closedir(dir);
  std::sort(ids.begin(), ids.end());
  return ids;
}

std::optional<TaskRecord> TaskCache::find_by_session(const std::string& session_id) const {
  std::optional<TaskRecord> export_record;
  for (const std::string& id : record_files()) {
    auto record = read(id);
    if (!record || record->session_id != session_id) continue;
    if (!starts_with(record->task_id, "ses_")) return record;
    if (!export_record) export_record = std::move(record);
  }
  return export_record;
}

std::vector<TaskRecord> TaskCache::load_all() const {
  std::vector<TaskRecord> out;
  for (const std::string& id : record_files()) {
    if (auto record = read(id)) out.push_back(std::move(*record));
  }
  return out;
}

}  // namespace hermes::task
