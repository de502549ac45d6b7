// SPDX-License-Identifier: MIT
// process at the JSON edge: the arguments in (the reference's lenient
// reading), each action's JSON out, and the registration.
#include "tools/process/process_json.h"

#include "core/strings.h"
#include "json/json.h"
#include "registry/output_schema.h"
#include "registry/registry.h"
#include "registry/tool_args.h"
#include "registry/typed_tool.h"
#include "tools/process/process.h"

#include <algorithm>
#include <ctime>
#include <map>
#include <string>

namespace hermes::process {
namespace {

using proc::ProcessSnapshot;

constexpr const char* kDescription =
    "Manage background processes started with terminal(background=true). "
    "Actions: 'list' (show all), 'poll' (check status + new output), 'log' "
    "(full output with pagination), 'wait' (block until done or timeout), "
    "'kill' (terminate), 'write' (send raw stdin data without newline), "
    "'submit' (send data + Enter, for answering prompts), 'close' (close "
    "stdin/send EOF).";

Result<ProcessAction> parse_action(const std::string& name) {
  static const std::map<std::string, ProcessAction> kActions = {
      {"list", ProcessAction::kList},     {"poll", ProcessAction::kPoll},
      {"log", ProcessAction::kLog},       {"wait", ProcessAction::kWait},
      {"kill", ProcessAction::kKill},     {"write", ProcessAction::kWrite},
      {"submit", ProcessAction::kSubmit}, {"close", ProcessAction::kClose}};
  auto it = kActions.find(name);
  if (it != kActions.end()) return it->second;
  return Error::InvalidArgument("Unknown process action: " + name +
                                ". Use: list, poll, log, wait, kill, write, submit, close");
}

std::string session_id_of(const Json& args) {
  auto it = args.find("session_id");
  if (it == args.end()) return "";
  if (it->is_string()) return it->get<std::string>();
  if (it->is_number_integer()) return std::to_string(it->get<int64_t>());
  return "";
}

std::string local_time(std::chrono::system_clock::time_point t) {
  std::time_t tt = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  ::localtime_r(&tt, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  return buf;
}

std::string last_chars(const std::string& text, size_t n) {
  size_t i = text.size();
  for (size_t seen = 0; i > 0 && seen < n;) {
    --i;
    seen += (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
  }
  return text.substr(i);
}

const char* status_of(const ProcessSnapshot& s) { return s.running ? "running" : "exited"; }

void add_exit_fields(Json& out, const ProcessSnapshot& s) {
  out["exit_code"] = s.exit_code;
  out["completion_reason"] = s.completion_reason;
  out["termination_source"] = s.termination_source;
}

Json list_entry(const ProcessView& view) {
  const ProcessSnapshot& s = view.snapshot;
  Json e{{"session_id", s.id},
         {"command", s.command},
         {"cwd", s.cwd},
         {"pid", s.pid},
         {"started_at", local_time(s.started_at)},
         {"uptime_seconds", view.uptime_seconds},
         {"status", status_of(s)},
         {"output_preview", last_chars(s.output, 200)}};
  if (!s.running) {
    e["exit_code"] = s.exit_code;
    e["exited_at"] = local_time(s.exited_at);
    e["completion_reason"] = s.completion_reason;
  }
  return e;
}

// A job's end, as `add_exit_fields` writes it.
std::vector<registry::Field> exit_fields() {
  return {registry::optional_key("exit_code", registry::integer_type()),
          registry::optional_key("completion_reason", registry::string_type()),
          registry::optional_key("termination_source", registry::string_type())};
}

// `fields`, then `more`.
std::vector<registry::Field> with(std::vector<registry::Field> fields,
                                  std::vector<registry::Field> more) {
  for (registry::Field& field : more) fields.push_back(std::move(field));
  return fields;
}

Json status_shape() { return registry::enum_of({"running", "exited"}); }

Json to_json(const ProcessListing& listing) {
  Json items = Json::array();
  for (const ProcessView& view : listing.processes) items.push_back(list_entry(view));
  return Json{{"processes", items}};
}

Json shape(registry::Of<ProcessListing>) {
  using registry::integer_type, registry::string_type;
  const Json entry = registry::object_shape({
      registry::key("session_id", string_type()),
      registry::key("command", string_type()),
      registry::key("cwd", string_type()),
      registry::key("pid", integer_type()),
      registry::key("started_at", string_type()),
      registry::key("uptime_seconds", integer_type()),
      registry::key("status", status_shape()),
      registry::key("output_preview", string_type()),
      registry::optional_key("exit_code", integer_type()),
      registry::optional_key("exited_at", string_type()),
      registry::optional_key("completion_reason", string_type()),
  });
  return registry::object_shape({registry::key("processes", registry::array_of(entry))});
}

Json to_json(const ProcessPoll& poll) {
  const ProcessSnapshot& s = poll.view.snapshot;
  Json out{{"session_id", s.id},
           {"command", s.command},
           {"status", status_of(s)},
           {"pid", s.pid},
           {"uptime_seconds", poll.view.uptime_seconds},
           {"output_preview", last_chars(s.output, 1000)}};
  if (!s.running) add_exit_fields(out, s);
  return out;
}

Json shape(registry::Of<ProcessPoll>) {
  using registry::integer_type, registry::string_type;
  return registry::object_shape(with(
      {
          registry::key("session_id", string_type()),
          registry::key("command", string_type()),
          registry::key("status", status_shape()),
          registry::key("pid", integer_type()),
          registry::key("uptime_seconds", integer_type()),
          registry::key("output_preview", string_type()),
      },
      exit_fields()));
}

Json to_json(const ProcessLog& log) {
  const ProcessSnapshot& s = log.view.snapshot;
  return Json{{"session_id", s.id},
              {"command", s.command},
              {"status", status_of(s)},
              {"output", log.lines},
              {"total_lines", log.total_lines},
              {"showing", std::to_string(log.shown) + " lines"}};
}

Json shape(registry::Of<ProcessLog>) {
  using registry::string_type;
  return registry::object_shape({
      registry::key("session_id", string_type()),
      registry::key("command", string_type()),
      registry::key("status", status_shape()),
      registry::key("output", string_type()),
      registry::key("total_lines", registry::integer_type()),
      registry::key("showing", string_type()),
  });
}

Json to_json(const ProcessWait& wait) {
  const ProcessSnapshot& s = wait.snapshot;
  const bool exited = !wait.error;
  const bool interrupted = wait.error && wait.error->code == ErrorCode::kCancelled;
  Json r{{"status", exited        ? "exited"
                    : interrupted ? "interrupted"
                                  : "timeout"},
         {"command", s.command}};
  if (exited) {
    add_exit_fields(r, s);
    r["output"] = last_chars(s.output, 2000);
    if (utf8_length(s.output) > 2000) r["output_cut"] = true;
  } else if (interrupted) {
    r["output"] = last_chars(s.output, 1000);
    r["note"] = wait.error->message;
  } else {
    r["output"] = last_chars(s.output, 1000);
    r["process_running"] = true;
    r["timeout_note"] = wait.error->message;
  }
  if (!wait.clamp_note.empty()) {
    r["timeout_note"] = wait.clamp_note + (exited ? "" : ". " + r.value("timeout_note", ""));
  }
  return r;
}

Json shape(registry::Of<ProcessWait>) {
  using registry::boolean_type, registry::string_type;
  return registry::object_shape(with(
      {
          registry::key("status", registry::enum_of({"exited", "interrupted", "timeout"})),
          registry::key("command", string_type()),
          registry::key("output", string_type()),
          registry::optional_key("output_cut", boolean_type()),
          registry::optional_key("note", string_type()),
          registry::optional_key("process_running", boolean_type()),
          registry::optional_key("timeout_note", string_type()),
      },
      exit_fields()));
}

Json to_json(const ProcessKill& kill) {
  if (kill.error) {
    Json r{{"status", "error"},
           {"session_id", kill.id},
           {"error", kill.error->message},
           {"survivors", kill.report.survivors},
           {"output", last_chars(kill.output, 1000)}};
    if (!kill.report.survivors.empty()) r["process_running"] = true;
    return r;
  }
  if (kill.report.outcome == proc::KillOutcome::kAlreadyExited) {
    Json r{{"status", "already_exited"}, {"session_id", kill.id}};
    if (kill.snapshot) add_exit_fields(r, *kill.snapshot);
    r["output"] = last_chars(kill.output, 1000);
    return r;
  }
  return Json{{"status", "killed"},
              {"session_id", kill.id},
              {"completion_reason", "killed"},
              {"termination_source", "process.kill"},
              {"stopped_by", kill.report.forced ? "SIGKILL" : "SIGTERM"},
              {"output", last_chars(kill.output, 1000)}};
}

Json shape(registry::Of<ProcessKill>) {
  using registry::string_type;
  return registry::object_shape(with(
      {
          registry::key("status", registry::enum_of({"killed", "already_exited", "error"})),
          registry::key("session_id", string_type()),
          registry::optional_key("error", string_type()),
          registry::optional_key("survivors", registry::array_of(registry::integer_type())),
          registry::optional_key("process_running", registry::boolean_type()),
          registry::optional_key("stopped_by", string_type()),
          registry::key("output", string_type()),
      },
      exit_fields()));
}

Json to_json(const ProcessStdinDone& done) {
  if (done.bytes_written) return Json{{"status", "ok"}, {"bytes_written", *done.bytes_written}};
  return Json{{"status", "ok"}, {"message", done.message}};
}

Json shape(registry::Of<ProcessStdinDone>) {
  return registry::object_shape({
      registry::key("status", registry::enum_of({"ok"})),
      registry::optional_key("bytes_written", registry::integer_type()),
      registry::optional_key("message", registry::string_type()),
  });
}

Json to_json(const ProcessRefused& refused) {
  const char* status = refused.error.code == ErrorCode::kNotFound   ? "not_found"
                       : refused.error.code == ErrorCode::kConflict ? "already_exited"
                                                                    : "error";
  return Json{{"status", status}, {"error", refused.error.message}};
}

Json shape(registry::Of<ProcessRefused>) { return registry::never_structured(); }

Json schema() {
  return Json::parse(R"json({
    "type": "object",
    "properties": {
      "action": {"type": "string", "enum": ["list", "poll", "log", "wait", "kill", "write", "submit", "close"], "description": "Action to perform on background processes"},
      "session_id": {"type": "string", "description": "Process session ID (from terminal background output). Required for all actions except 'list'."},
      "data": {"type": "string", "description": "Text to send to process stdin (for 'write' and 'submit' actions)"},
      "timeout": {"type": "integer", "description": "Max seconds to block for 'wait' action. Returns partial output on timeout.", "minimum": 1},
      "offset": {"type": "integer", "description": "Line offset for 'log' action (default: last 200 lines)"},
      "limit": {"type": "integer", "description": "Max lines to return for 'log' action", "minimum": 1}
    },
    "required": ["action"]
  })json");
}

}  // namespace

Result<ProcessParams> parse_process_params(const Json& args) {
  ProcessParams out;
  HERMES_ASSIGN_OR_RETURN(std::optional<std::string> action,
                          registry::optional_string_arg(args, "process", "action"));
  HERMES_ASSIGN_OR_RETURN(out.action, parse_action(action.value_or("")));
  out.session_id = session_id_of(args);
  if (out.action != ProcessAction::kList && out.session_id.empty()) {
    return Error::InvalidArgument("session_id is required for " + *action);
  }
  if (auto it = args.find("data"); it != args.end() && it->is_string())
    out.data = it->get<std::string>();
  out.timeout = registry::coerce_int_arg(args, "timeout");
  out.offset = registry::coerce_int_arg(args, "offset");
  out.limit = std::max<int64_t>(1, registry::coerce_int_arg(args, "limit").value_or(200));
  return out;
}

Json process_json(const ProcessOutput& output) {
  return std::visit([](const auto& outcome) { return to_json(outcome); }, output);
}

void register_process(registry::Registry& registry) {
  registry.add(registry::ToolSpec{
      .name = "process",
      .toolset = "terminal",
      .description = kDescription,
      .input_schema = schema(),
      .output_schema = registry::output_schema<ProcessOutput>([](auto of) { return shape(of); }),
      .annotations = {.read_only = false, .destructive = true},
      .run = registry::typed_entry(registry::TypedTool<ProcessParams, ProcessOutput>{
          .parse = parse_process_params,
          .handler = process,
          .render = process_json,
          .failure = process_failure,
      }),
      // A wait blocks until the job exits or its timeout.
      .long_running = registry::when_parsed(
          parse_process_params,
          +[](const ProcessParams& params) { return params.action == ProcessAction::kWait; }),
  });
}

}  // namespace hermes::process
