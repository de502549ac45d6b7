// SPDX-License-Identifier: MIT
// process: its typed arguments and outcomes, and the handler that acts on
// the session's background jobs (docs/terminal.md). Every command and output
// in an outcome is already ANSI-stripped and redacted. The JSON shapes live
// in process_json.cc.
#pragma once

#include "core/result.h"
#include "proc/process_registry.h"
#include "registry/tool.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace hermes::registry {
class Registry;
}  // namespace hermes::registry

namespace hermes::process {

enum class ProcessAction { kList, kPoll, kLog, kWait, kKill, kWrite, kSubmit, kClose };

struct ProcessParams {
  ProcessAction action = ProcessAction::kList;
  std::string session_id;  // never empty but for list
  std::string data;        // write / submit
  std::optional<int64_t> timeout;
  std::optional<int64_t> offset;
  int64_t limit = 200;  // at least 1
};

// A job as the model sees it: `command` and `output` cleaned.
struct ProcessView {
  proc::ProcessSnapshot snapshot;
  int64_t uptime_seconds = 0;
};

// list: every job (each command cut to 200 bytes before cleaning).
struct ProcessListing {
  std::vector<ProcessView> processes;
};

struct ProcessPoll {
  ProcessView view;
};

// log: a page of the output's lines.
struct ProcessLog {
  ProcessView view;
  std::string lines;  // the page, joined by '\n'
  int64_t total_lines = 0;
  int64_t shown = 0;
};

// wait: the job exited, or the wait ended first (`error`: kTimeout, or
// kCancelled when the client interrupted it). Both count as failures
// (`isError`), as the contract's `timeout` and `interrupted` statuses do.
struct ProcessWait {
  proc::ProcessSnapshot snapshot;
  int64_t waited_seconds = 0;
  std::string clamp_note;  // the requested wait was above the limit, or empty
  std::optional<Error> error;
};

// kill: killed, already exited, or incomplete (`error` set: something of the
// job's tree may still run).
struct ProcessKill {
  std::string id;
  proc::KillReport report;
  std::optional<proc::ProcessSnapshot> snapshot;
  std::string output;  // cleaned; empty when the job is gone
  std::optional<Error> error;
};

// write / submit / close went through.
struct ProcessStdinDone {
  std::optional<size_t> bytes_written;  // write / submit
  std::string message;                  // close
};

// A refusal answered with a `status`: kNotFound (no such job), kConflict
// (the job has finished), anything else ("error").
struct ProcessRefused {
  Error error;
};

using ProcessOutput = std::variant<ProcessListing, ProcessPoll, ProcessLog, ProcessWait,
                                   ProcessKill, ProcessStdinDone, ProcessRefused>;

// Runs process. Its failures are outputs (`process_failure` names them);
// argument errors come from the parser.
Result<ProcessOutput> process(const ProcessParams& params, registry::CallContext& ctx);
const Error* process_failure(const ProcessOutput& output);

void register_process(registry::Registry& registry);

}  // namespace hermes::process
