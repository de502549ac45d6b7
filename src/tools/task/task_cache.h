// SPDX-License-Identifier: MIT
// The run cache: one `<task_id>.json` per successful run (and per live
// session export), read back by hermes_task_detail and hermes_telemetry.
// Compatible with the reference server's files in both directions.
#pragma once

#include "core/result.h"
#include "json/json.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hermes::task {

struct Digest {
  int64_t tool_call_count = 0;
  std::optional<int64_t> api_call_count;
  std::optional<int64_t> message_count;
  std::vector<std::string> tools_used;
};

struct TaskRecord {
  std::string task_id;
  std::optional<std::string> session_id;
  std::optional<std::string> provider;
  std::optional<std::string> model;
  std::string output_mode = "full";
  std::optional<std::string> result;  // the full, uncapped stdout
  Json tool_calls;                    // null or an array of {id,name,arguments,result}
  std::optional<Digest> digest;
  std::optional<int64_t> prompt_len;
  std::optional<int64_t> exit_code;
  std::optional<int64_t> duration_ms;
  std::string created_at;  // ISO-8601; may be empty in foreign files
};

// True for `[A-Za-z0-9_-]{1,128}`: the only ids that may become a file name.
bool is_valid_id(std::string_view id);

Json digest_to_json(const std::optional<Digest>& digest);
// The schema of `digest_to_json`'s value (null without a digest).
Json digest_shape();

// Thread-safe: every method works on whole files (atomic replace on write).
class TaskCache {
 public:
  explicit TaskCache(std::string dir) : dir_(std::move(dir)) {}

  // Writes `<dir>/<task_id>.json` (pretty JSON), creating the directory.
  // kInvalidArgument for an invalid id; the filesystem error otherwise.
  Status write(const TaskRecord& record) const;
  // nullopt when the id is invalid, the file is missing or does not parse.
  std::optional<TaskRecord> read(const std::string& task_id) const;
  // A record whose session_id matches; real runs win over `ses_` exports,
  // then file-name order.
  std::optional<TaskRecord> find_by_session(const std::string& session_id) const;
  // Every parseable record (corrupt files skipped), in file-name order.
  std::vector<TaskRecord> load_all() const;

  const std::string& dir() const { return dir_; }

 private:
  std::vector<std::string> record_files() const;
  std::string dir_;
};

}  // namespace hermes::task
