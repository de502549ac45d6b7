// SPDX-License-Identifier: MIT
// process: list/poll/log/wait/kill/write/submit/close over the session's
// background jobs (docs/terminal.md). All output is ANSI-stripped and
// redacted, the `command` field included.
#include "core/config.h"
#include "core/json.h"
#include "core/strings.h"
#include "registry/registry.h"
#include "registry/session.h"
#include "tools/terminal/background.h"
#include "tools/terminal/terminal_state.h"

#include <ctime>
#include <set>
#include <string>

namespace hermes {
namespace {

using proc::ProcessSnapshot;

constexpr const char* kDescription =
    "Manage background processes started with terminal(background=true). "
    "Actions: 'list' (show all), 'poll' (check status + new output), 'log' "
    "(full output with pagination), 'wait' (block until done or timeout), "
    "'kill' (terminate), 'write' (send raw stdin data without newline), "
    "'submit' (send data + Enter, for answering prompts), 'close' (close "
    "stdin/send EOF).";

struct ProcessArgs {
  std::string action;
  std::string session_id;
  std::string data;
  std::optional<int64_t> timeout;
  std::optional<int64_t> offset;
  int64_t limit = 200;
};

std::optional<int64_t> opt_int(const Json& args, const char* key) {
  auto it = args.find(key);
  if (it == args.end() || it->is_null()) return std::nullopt;
  if (it->is_number()) return static_cast<int64_t>(it->get<double>());
  if (it->is_string()) return parse_int(it->get<std::string>());
  return std::nullopt;
}

ProcessArgs parse_args(const Json& args) {
  ProcessArgs out;
  out.action = args.value("action", "");
  if (auto it = args.find("session_id"); it != args.end()) {
    if (it->is_string()) out.session_id = it->get<std::string>();
    if (it->is_number_integer()) out.session_id = std::to_string(it->get<int64_t>());
  }
  if (auto it = args.find("data"); it != args.end() && it->is_string())
    out.data = it->get<std::string>();
  out.timeout = opt_int(args, "timeout");
  out.offset = opt_int(args, "offset");
  out.limit = std::max<int64_t>(1, opt_int(args, "limit").value_or(200));
  return out;
}

std::string last_chars(const std::string& text, size_t n) {
  size_t i = text.size();
  for (size_t seen = 0; i > 0 && seen < n;) {
    --i;
    seen += (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
  }
  return text.substr(i);
}

std::string local_time(std::chrono::system_clock::time_point t) {
  std::time_t tt = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  ::localtime_r(&tt, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  return buf;
}

int64_t uptime(const ProcessSnapshot& s) {
  auto end = s.running ? std::chrono::system_clock::now() : s.exited_at;
  return std::chrono::duration_cast<std::chrono::seconds>(end - s.started_at).count();
}

Json list_entry(const ProcessSnapshot& s, CallContext& ctx) {
  Json e{{"session_id", s.id},
         {"command", clean_process_output(s.command.substr(0, 200), ctx)},
         {"cwd", s.cwd},
         {"pid", s.pid},
         {"started_at", local_time(s.started_at)},
         {"uptime_seconds", uptime(s)},
         {"status", s.running ? "running" : "exited"},
         {"output_preview", last_chars(clean_process_output(s.output, ctx), 200)}};
  if (!s.running) {
    e["exit_code"] = s.exit_code;
    e["exited_at"] = local_time(s.exited_at);
    e["completion_reason"] = s.completion_reason;
  }
  return e;
}

void add_exit_fields(Json& out, const ProcessSnapshot& s) {
  out["exit_code"] = s.exit_code;
  out["completion_reason"] = s.completion_reason;
  out["termination_source"] = s.termination_source;
}

Json poll(const ProcessSnapshot& s, CallContext& ctx) {
  Json out{{"session_id", s.id},
           {"command", clean_process_output(s.command, ctx)},
           {"status", s.running ? "running" : "exited"},
           {"pid", s.pid},
           {"uptime_seconds", uptime(s)},
           {"output_preview", last_chars(clean_process_output(s.output, ctx), 1000)}};
  if (!s.running) add_exit_fields(out, s);
  return out;
}

Json log(const ProcessSnapshot& s, const ProcessArgs& a, CallContext& ctx) {
  std::vector<std::string> lines;
  std::string text = clean_process_output(s.output, ctx);
  size_t start = 0;
  for (size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1) {
    lines.push_back(text.substr(start, nl - start));
  }
  if (start < text.size()) lines.push_back(text.substr(start));
  auto total = static_cast<int64_t>(lines.size());
  // No offset: the last `limit` lines. offset=0 follows the newest: the head.
  int64_t from =
      a.offset ? std::clamp<int64_t>(*a.offset, 0, total) : std::max<int64_t>(0, total - a.limit);
  int64_t to = std::min<int64_t>(total, from + a.limit);
  std::string output;
  for (int64_t i = from; i < to; ++i)
    output += lines[static_cast<size_t>(i)] + (i + 1 < to ? "\n" : "");
  return Json{{"session_id", s.id},
              {"command", clean_process_output(s.command, ctx)},
              {"status", s.running ? "running" : "exited"},
              {"output", output},
              {"total_lines", total},
              {"showing", std::to_string(to - from) + " lines"}};
}

Json wait(const std::string& id, const ProcessArgs& a, CallContext& ctx) {
  proc::ProcessRegistry& reg = ctx.session.state<TerminalState>().processes();
  int64_t limit = ctx.services.config.get_int("terminal.timeout", 180, "TERMINAL_TIMEOUT");
  int64_t t = a.timeout.value_or(limit);
  if (t <= 0)
    return Json{{"status", "error"},
                {"error", "timeout must be positive (got " + std::to_string(t) + ")"}};
  std::optional<std::string> note;
  if (t > limit) {
    note = "Requested wait of " + std::to_string(t) + "s was clamped to configured limit of " +
           std::to_string(limit) + "s";
    t = limit;
  }
  bool exited = reg.wait(id, std::chrono::seconds(t), ctx.stop);
  auto s = reg.snapshot(id);
  if (!s) return Json{{"status", "not_found"}, {"error", "No process with ID " + id}};
  std::string out = clean_process_output(s->output, ctx);
  Json r{{"status", exited                      ? "exited"
                    : ctx.stop.stop_requested() ? "interrupted"
                                                : "timeout"},
         {"command", clean_process_output(s->command, ctx)}};
  if (exited) {
    reg.mark_read(id);
    add_exit_fields(r, *s);
    r["output"] = last_chars(out, 2000);
    if (utf8_length(out) > 2000) r["output_cut"] = true;
  } else if (ctx.stop.stop_requested()) {
    r["output"] = last_chars(out, 1000);
    r["note"] = "User sent a new message -- wait interrupted";
  } else {
    r["output"] = last_chars(out, 1000);
    r["process_running"] = true;
    r["timeout_note"] = "Process still running after " + std::to_string(t) +
                        "s wait; this is not an error. Poll or wait again later.";
  }
  if (note) r["timeout_note"] = *note + (exited ? "" : ". " + r.value("timeout_note", ""));
  return r;
}

// What a kill that left something behind says: the contract's "Kill
// incomplete" error, never `killed`.
Json incomplete_kill(const std::string& id, const proc::KillReport& report,
                     const std::string& output) {
  std::string why =
      report.untracked
          ? "the command killed the supervisor that tracks its processes, so some may still "
            "be running out of reach"
          : std::to_string(report.survivors.size()) + " process(es) still alive after SIGKILL";
  Json r{{"status", "error"},
         {"session_id", id},
         {"error", "Kill incomplete: " + why},
         {"survivors", report.survivors},
         {"output", output}};
  if (!report.survivors.empty()) r["process_running"] = true;
  return r;
}

Json kill(const std::string& id, CallContext& ctx) {
  proc::ProcessRegistry& reg = ctx.session.state<TerminalState>().processes();
  auto grace = std::chrono::milliseconds(static_cast<int64_t>(
      1000 * ctx.services.config.get_double("terminal.daemon_term_grace_seconds", 2.0)));
  proc::KillReport k = reg.kill(id, grace);
  auto s = reg.snapshot(id);
  std::string output = s ? last_chars(clean_process_output(s->output, ctx), 1000) : "";
  if (!k.complete()) return incomplete_kill(id, k, output);
  if (k.outcome == proc::KillOutcome::kAlreadyExited) {
    Json r{{"status", "already_exited"}, {"session_id", id}};
    if (s) add_exit_fields(r, *s);
    r["output"] = output;
    return r;
  }
  return Json{{"status", "killed"},
              {"session_id", id},
              {"completion_reason", "killed"},
              {"termination_source", "process.kill"},
              {"output", output}};
}

Json stdin_status(const Status& st, const std::string& ok_key, const Json& ok_value) {
  if (st) return Json{{"status", "ok"}, {ok_key, ok_value}};
  if (st.error().code == ErrorCode::kConflict) {
    return Json{{"status", "already_exited"}, {"error", "Process has already finished"}};
  }
  if (st.error().code == ErrorCode::kTimeout) {
    return Json{{"status", "error"}, {"error", st.error().message}};
  }
  return Json{{"status", "error"},
              {"error", "Process stdin not available (non-local backend or stdin closed)"}};
}

Json process(const Json& raw, CallContext& ctx) {
  ProcessArgs a = parse_args(raw);
  proc::ProcessRegistry& reg = ctx.session.state<TerminalState>().processes();
  static const std::set<std::string> kActions = {"list", "poll",  "log",    "wait",
                                                 "kill", "write", "submit", "close"};
  if (!kActions.count(a.action)) {
    return Json{{"error", "Unknown process action: " + a.action +
                              ". Use: list, poll, log, wait, kill, write, submit, close"}};
  }
  if (a.action == "list") {
    Json items = Json::array();
    for (const ProcessSnapshot& s : reg.list()) items.push_back(list_entry(s, ctx));
    return Json{{"processes", items}};
  }
  if (a.session_id.empty()) return Json{{"error", "session_id is required for " + a.action}};
  auto id = reg.resolve(a.session_id);
  if (!id) return Json{{"status", "not_found"}, {"error", "No process with ID " + a.session_id}};
  if (a.action == "wait") return wait(*id, a, ctx);
  if (a.action == "kill") return kill(*id, ctx);
  if (a.action == "write") {
    return stdin_status(reg.write(*id, a.data), "bytes_written", utf8_length(a.data));
  }
  if (a.action == "submit") {
    return stdin_status(reg.write(*id, a.data + "\n"), "bytes_written", utf8_length(a.data) + 1);
  }
  if (a.action == "close") {
    auto s = reg.snapshot(*id);
    return stdin_status(reg.close_stdin(*id), "message", s && s->pty ? "EOF sent" : "stdin closed");
  }
  auto s = reg.snapshot(*id);
  if (!s) return Json{{"status", "not_found"}, {"error", "No process with ID " + a.session_id}};
  if (a.action == "log") {
    reg.mark_read(*id);
    return log(*s, a, ctx);
  }
  return poll(*s, ctx);
}

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

void register_process(Registry& registry) {
  registry.add(ToolSpec{
      .name = "process",
      .toolset = "terminal",
      .description = kDescription,
      .input_schema = schema(),
      .annotations = {.read_only = false, .destructive = true},
      .handler = process,
  });
}

}  // namespace hermes
