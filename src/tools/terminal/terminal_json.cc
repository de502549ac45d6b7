// SPDX-License-Identifier: MIT
// terminal at the JSON edge: the arguments in, each outcome's JSON out in
// the contract's key order, the schema and the registration.
#include "tools/terminal/terminal_json.h"

#include "core/strings.h"
#include "json/json.h"
#include "registry/output_schema.h"
#include "registry/registry.h"
#include "registry/tool_args.h"
#include "registry/typed_tool.h"
#include "tools/terminal/terminal.h"

#include <string>

namespace hermes::terminal {
namespace {

constexpr const char* kDescription =
    "Execute shell commands on a Linux environment. Filesystem, current "
    "working directory, and exported environment variables persist between "
    "calls.\n"
    "\n"
    "Do NOT use cat/head/tail (use read_file), grep/rg/find/ls (use search_files), "
    "sed/awk (use patch), or echo/heredoc file creation (use write_file). "
    "Reserve terminal for: builds, installs, git, processes, scripts, "
    "network, package managers, and anything that needs a shell.\n"
    "NEVER pipe a build/test command through tail/head/cat to shorten "
    "output (e.g. `cargo build | tail -20`): output is auto-truncated "
    "with the full text saved to a file, and the pipe makes exit_code "
    "report the LAST pipeline command's status (tail's 0), masking real "
    "failures. Run the command bare; the same applies to `cmd || echo "
    "failed`, which also masks the exit code.\n"
    "Environment state persists: activate a virtualenv or export variables "
    "once per session, not before every command.\n"
    "\n"
    "Foreground (default): returns INSTANTLY when the command finishes, "
    "even with a high timeout — set timeout generously for long builds.\n"
    "Background: set background=true (returns a session_id). Pair with "
    "notify_on_complete=true for bounded tasks; leave silent only for "
    "servers/daemons that never exit. Never use nohup/setsid/trailing "
    "'&' — use background=true so Hermes tracks the process. After starting "
    "a server, verify readiness with a health check, then act in a separate "
    "call; no blind sleep loops. Manage with process(action=\"poll\"/\"wait\").\n"
    "Working directory: use 'workdir' for per-command cwd. When a command "
    "changes the session cwd (cd, pushd), the result includes a \"cwd\" "
    "field — trust it instead of prefixing every command with 'cd'.\n"
    "PTY: set pty=true for interactive CLIs (they hang without it). Pipe "
    "git output to cat if it might page.";

Json status_json(const std::string& error, const std::string& status) {
  return Json{{"output", ""}, {"exit_code", -1}, {"error", error}, {"status", status}};
}

bool truthy(const Json& args, const char* key) {
  auto it = args.find(key);
  if (it == args.end()) return false;
  if (it->is_boolean()) return it->get<bool>();
  if (it->is_string()) return it->get<std::string>() == "true";
  return it->is_number() && it->get<double>() != 0;
}

Json to_json(const TerminalRan& ran) {
  const ForegroundResult& r = ran.run;
  Json out = object_with_room(14);
  out["output"] = r.output;
  out["exit_code"] = r.exit_code;
  out["error"] = nullptr;
  if (r.stopped_by) out["stopped_by"] = *r.stopped_by;
  if (r.cwd) out["cwd"] = *r.cwd;
  if (r.cwd_note) out["cwd_note"] = *r.cwd_note;
  if (r.notice) out["notice"] = *r.notice;
  if (r.snapshot_note) out["snapshot_note"] = *r.snapshot_note;
  if (r.formatted.truncated) {
    out["output_total_chars"] = r.formatted.total_chars;
    if (!r.formatted.full_output_path.empty()) {
      out["full_output_path"] = r.formatted.full_output_path;
      out["truncation_note"] =
          "Output was truncated; the full output (ANSI-stripped and "
          "redacted) is saved at full_output_path. Read it with "
          "read_file using offset/limit.";
    }
  }
  if (!ran.approval.empty()) out["approval"] = ran.approval;
  if (ran.exit_code_meaning) out["exit_code_meaning"] = *ran.exit_code_meaning;
  return out;
}

Json shape(registry::Of<TerminalRan>) {
  using registry::string_type;
  return registry::object_shape({
      registry::key("output", string_type()),
      registry::key("exit_code", registry::integer_type()),
      registry::key("error", registry::null_type()),
      registry::optional_key("stopped_by", string_type()),
      registry::optional_key("cwd", string_type()),
      registry::optional_key("cwd_note", string_type()),
      registry::optional_key("notice", string_type()),
      registry::optional_key("snapshot_note", string_type()),
      registry::optional_key("output_total_chars", registry::integer_type()),
      registry::optional_key("full_output_path", string_type()),
      registry::optional_key("truncation_note", string_type()),
      registry::optional_key("approval", string_type()),
      registry::optional_key("exit_code_meaning", string_type()),
  });
}

Json to_json(const TerminalStarted& started) {
  Json out{{"output", "Background process started"},
           {"session_id", started.job.session_id},
           {"pid", started.job.pid},
           {"exit_code", 0},
           {"error", nullptr}};
  if (!started.approval.empty()) out["approval"] = started.approval;
  if (started.pty_disabled) {
    out["pty_note"] =
        "pty disabled: gh auth login --with-token reads the token from stdin, "
        "which needs a pipe. Send it with process(action=\"submit\").";
  }
  bool watching = !started.watch_patterns.empty();
  if (!started.notify_on_complete && !watching) {
    out["hint"] =
        "Running silently. Use process(action=\"poll\") to check on it, or "
        "notify_on_complete=true next time for bounded jobs.";
  }
  if (started.notify_on_complete) out["notify_on_complete"] = true;
  if (started.watch_patterns_ignored) out["watch_patterns_ignored"] = true;
  if (watching) out["watch_patterns"] = started.watch_patterns;
  if (started.notifications_undeliverable) {
    out["notification_note"] =
        "This client connection cannot receive notifications once this call has returned "
        "(HTTP, or the 2026-07-28 wire): check on the job with process(action=\"poll\") or "
        "process(action=\"wait\").";
  }
  if (started.notice) out["notice"] = *started.notice;
  if (started.snapshot_note) out["snapshot_note"] = *started.snapshot_note;
  return out;
}

Json shape(registry::Of<TerminalStarted>) {
  using registry::boolean_type, registry::string_type;
  return registry::object_shape({
      registry::key("output", string_type()),
      registry::key("session_id", string_type()),
      registry::key("pid", registry::integer_type()),
      registry::key("exit_code", registry::integer_type()),
      registry::key("error", registry::null_type()),
      registry::optional_key("approval", string_type()),
      registry::optional_key("pty_note", string_type()),
      registry::optional_key("hint", string_type()),
      registry::optional_key("notify_on_complete", boolean_type()),
      registry::optional_key("watch_patterns_ignored", boolean_type()),
      registry::optional_key("watch_patterns", registry::array_of(string_type())),
      registry::optional_key("notification_note", string_type()),
      registry::optional_key("notice", string_type()),
      registry::optional_key("snapshot_note", string_type()),
  });
}

Json to_json(const TerminalBlocked& blocked) {
  return status_json(blocked.error.message, "blocked");
}

Json shape(registry::Of<TerminalBlocked>) { return registry::never_structured(); }

// Over MCP a dangerous command never runs unattended.
Json to_json(const TerminalPending& pending) {
  return Json{{"output", ""},
              {"exit_code", -1},
              {"error", pending.error.message},
              {"status", "pending_approval"},
              {"approval_pending", true},
              {"command", pending.command},
              {"description", pending.description},
              {"pattern_key", pending.description},
              {"smart_denied", false},
              {"allow_permanent", true}};
}

Json shape(registry::Of<TerminalPending>) { return registry::never_structured(); }

Json to_json(const TerminalTimeoutRefused& refused) {
  return registry::error_json(refused.error.message);
}

Json shape(registry::Of<TerminalTimeoutRefused>) { return registry::never_structured(); }

Json schema() {
  return Json::parse(R"json({
    "type": "object",
    "properties": {
      "command": {"type": "string", "description": "The command to execute on the VM"},
      "background": {"type": "boolean", "description": "Run the command in the background and return a session_id at once (manage it with the process tool).", "default": false},
      "timeout": {"type": "integer", "description": "Max seconds to wait (default: 180, foreground max: 600). Returns instantly when the command finishes.", "minimum": 1},
      "workdir": {"type": "string", "description": "Working directory for this command (absolute path). Defaults to the session working directory."},
      "pty": {"type": "boolean", "description": "Run in a pseudo-terminal for interactive CLI tools (background mode).", "default": false},
      "notify_on_complete": {"type": "boolean", "description": "Background only: notify when the process exits.", "default": false},
      "watch_patterns": {"type": "array", "items": {"type": "string"}, "description": "Background only: notify when an output line contains one of these strings. Mutually exclusive with notify_on_complete."}
    },
    "required": ["command"]
  })json");
}

}  // namespace

Result<TerminalParams> parse_terminal_params(const Json& args) {
  auto command = args.find("command");
  if (command == args.end() && args.contains("code")) {
    return Error::InvalidArgument(
        "terminal runs shell commands and takes 'command', not 'code'. To run Python "
        "code, use the execute_code tool instead.");
  }
  if (command == args.end() || !command->is_string()) {
    return Error::InvalidArgument(
        "Invalid command: expected string, got " +
        registry::python_type_name(command == args.end() ? Json() : *command));
  }
  TerminalParams out;
  out.command = command->get<std::string>();
  out.background = truthy(args, "background");
  // Non-integers count as "not given" (the default), like a schema-less client.
  out.timeout = registry::coerce_int_arg(args, "timeout").value_or(0);
  out.pty = truthy(args, "pty");
  out.notify_on_complete = truthy(args, "notify_on_complete");
  if (auto it = args.find("workdir");
      it != args.end() && it->is_string() && !it->get<std::string>().empty()) {
    out.workdir = it->get<std::string>();
  }
  if (auto it = args.find("watch_patterns"); it != args.end() && it->is_array()) {
    for (const Json& p : *it) {
      if (p.is_string() && !p.get<std::string>().empty())
        out.watch_patterns.push_back(p.get<std::string>());
    }
  }
  return out;
}

Json terminal_json(const TerminalOutput& output) {
  return std::visit([](const auto& outcome) { return to_json(outcome); }, output);
}

Json terminal_error_json(const Error& error) { return status_json(error.message, "error"); }

void register_terminal(registry::Registry& registry) {
  registry.add(registry::ToolSpec{
      .name = "terminal",
      .toolset = "terminal",
      .description = kDescription,
      .input_schema = schema(),
      .output_schema = registry::output_schema<TerminalOutput>([](auto of) { return shape(of); }),
      .annotations = {.read_only = false, .destructive = true, .open_world = true},
      .run = registry::typed_entry(registry::TypedTool<TerminalParams, TerminalOutput>{
          .parse = parse_terminal_params,
          .handler = terminal,
          .render = terminal_json,
          .failure = terminal_failure,
          .render_error = terminal_error_json,
      }),
      // A foreground command runs until it ends or times out.
      .long_running = registry::when_parsed(
          parse_terminal_params, +[](const TerminalParams& params) { return !params.background; }),
      // Any command may change any file, a background one after the call too.
      .changes = registry::changes_when_parsed(
          parse_terminal_params,
          +[](const TerminalParams& params) {
            return std::optional(checkpoint::Footprint{{}, true, params.command});
          }),
  });
}

}  // namespace hermes::terminal
