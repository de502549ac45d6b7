// SPDX-License-Identifier: MIT
// terminal: registration, argument parsing and the contract's result JSON.
// The work happens in foreground.cc, background.cc and tools/approval.
#include "backend/command_fence.h"
#include "core/config.h"
#include "core/json.h"
#include "core/strings.h"
#include "registry/dispatcher.h"
#include "registry/registry.h"
#include "registry/session.h"
#include "registry/tool_args.h"
#include "tools/approval/approval_gate.h"
#include "tools/file_common/session_backend.h"
#include "tools/terminal/background.h"
#include "tools/terminal/exit_meaning.h"
#include "tools/terminal/foreground.h"
#include "tools/terminal/guardrails.h"
#include "tools/terminal/terminal_state.h"

#include <string>

namespace hermes {
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

struct TerminalArgs {
  std::string command;
  bool background = false;
  int64_t timeout = 0;
  std::optional<std::string> workdir;
  bool pty = false;
  bool notify_on_complete = false;
  std::vector<std::string> watch_patterns;
};

Json status_result(const std::string& error, const std::string& status) {
  return Json{{"output", ""}, {"exit_code", -1}, {"error", error}, {"status", status}};
}

// Over MCP a dangerous command never runs unattended.
Json pending_result(const std::string& command, const approval::GateResult& gate) {
  return Json{{"output", ""},
              {"exit_code", -1},
              {"error", ""},
              {"status", "pending_approval"},
              {"approval_pending", true},
              {"command", command},
              {"description", gate.description},
              {"pattern_key", gate.description},
              {"smart_denied", false},
              {"allow_permanent", true}};
}

bool truthy(const Json& args, const char* key) {
  auto it = args.find(key);
  if (it == args.end()) return false;
  if (it->is_boolean()) return it->get<bool>();
  if (it->is_string()) return it->get<std::string>() == "true";
  return it->is_number() && it->get<double>() != 0;
}

// Non-integers count as "not given" (the default), like a schema-less client.
int64_t int_arg(const Json& args, const char* key) {
  auto it = args.find(key);
  if (it == args.end()) return 0;
  if (it->is_number()) return static_cast<int64_t>(it->get<double>());
  if (it->is_string()) return parse_int(it->get<std::string>()).value_or(0);
  return 0;
}

Result<TerminalArgs> parse_args(const Json& args) {
  auto command = args.find("command");
  if (command == args.end() && args.contains("code")) {
    return Error::InvalidArgument(
        "terminal runs shell commands and takes 'command', not 'code'. To run Python "
        "code, use the execute_code tool instead.");
  }
  if (command == args.end() || !command->is_string()) {
    return Error::InvalidArgument("Invalid command: expected string, got " +
                                  python_type_name(command == args.end() ? Json() : *command));
  }
  TerminalArgs out;
  out.command = command->get<std::string>();
  out.background = truthy(args, "background");
  out.timeout = int_arg(args, "timeout");
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

Json foreground_json(const ForegroundResult& r, const std::string& command,
                     const std::string& approval) {
  Json out{{"output", r.output}, {"exit_code", r.exit_code}, {"error", nullptr}};
  if (r.cwd) out["cwd"] = *r.cwd;
  if (r.cwd_note) out["cwd_note"] = *r.cwd_note;
  if (r.notice) out["notice"] = *r.notice;
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
  if (!approval.empty()) out["approval"] = approval;
  if (auto meaning = exit_code_meaning(command, r.exit_code)) out["exit_code_meaning"] = *meaning;
  return out;
}

Json background(const TerminalArgs& args, CallContext& ctx, const approval::GateResult& gate) {
  auto backend = session_backend(ctx);
  if (!backend) return status_result(backend.error().message, "error");
  auto cwd = start_directory({.command = args.command, .workdir = args.workdir}, ctx, **backend);
  if (!cwd) return status_result("Blocked: " + cwd.error().message, "blocked");
  // gh reads the token from stdin, which must be a pipe, not a terminal.
  bool force_pipe = args.pty && args.command.find("gh auth login") != std::string::npos &&
                    args.command.find("--with-token") != std::string::npos;
  bool notify = args.notify_on_complete;
  // Mutually exclusive: notify_on_complete wins and the patterns are dropped.
  bool watch = !notify && !args.watch_patterns.empty();
  auto started =
      start_background({.command = args.command,
                        .cwd = *cwd,
                        .pty = args.pty && !force_pipe,
                        .notify_on_complete = notify,
                        .watch_patterns = watch ? args.watch_patterns : std::vector<std::string>{}},
                       ctx);
  if (!started)
    return status_result("Failed to start background process: " + started.error().message, "error");
  Json out{{"output", "Background process started"},
           {"session_id", started->session_id},
           {"pid", started->pid},
           {"exit_code", 0},
           {"error", nullptr}};
  if (gate.verdict == approval::Verdict::kApproved) {
    out["approval"] = approval::approval_note(gate.description);
  }
  if (force_pipe) {
    out["pty_note"] =
        "pty disabled: gh auth login --with-token reads the token from stdin, "
        "which needs a pipe. Send it with process(action=\"submit\").";
  }
  if (!notify && !watch) {
    out["hint"] =
        "Running silently. Use process(action=\"poll\") to check on it, or "
        "notify_on_complete=true next time for bounded jobs.";
  }
  if (notify) out["notify_on_complete"] = true;
  if (notify && !args.watch_patterns.empty()) out["watch_patterns_ignored"] = true;
  if (watch) out["watch_patterns"] = args.watch_patterns;
  if (auto notice = fence_notice(**backend)) out["notice"] = *notice;
  return out;
}

Json terminal(const Json& raw, CallContext& ctx) {
  auto args = parse_args(raw);
  if (!args) return status_result(args.error().message, "error");
  const Config& config = ctx.services.config;
  int64_t default_timeout = config.get_int("terminal.timeout", 180, "TERMINAL_TIMEOUT");
  int64_t max_fg =
      config.get_int("terminal.max_foreground_timeout", 600, "TERMINAL_MAX_FOREGROUND_TIMEOUT");
  if (args->timeout < 0) {
    return status_result(
        "timeout must be a positive integer (got " + std::to_string(args->timeout) + ")", "error");
  }
  int64_t timeout = args->timeout == 0 ? default_timeout : args->timeout;
  if (!args->background && timeout > max_fg) {
    return Json{{"error", "Foreground timeout " + std::to_string(timeout) +
                              "s exceeds the maximum of " + std::to_string(max_fg) +
                              "s. Use background=true with notify_on_complete=true for "
                              "long-running commands."}};
  }
  if (!args->background) {
    if (auto refusal = foreground_guardrail(args->command)) return status_result(*refusal, "error");
  }
  // The gate reads names the session's snapshot defines (functions,
  // aliases, exports) at their call sites.
  std::string snapshot = ctx.session.state<TerminalState>().shell().snapshot_text();
  approval::GateResult gate =
      approval::check_command(args->command, ctx, {snapshot, args->workdir.value_or("")});
  if (gate.verdict == approval::Verdict::kBlocked) return status_result(gate.message, "blocked");
  if (gate.verdict == approval::Verdict::kPending) return pending_result(args->command, gate);
  if (args->workdir) {
    if (auto bad = workdir_disallowed_char(*args->workdir)) {
      return status_result("Blocked: workdir contains disallowed character " + py_repr_char(*bad) +
                               ". Use a simple filesystem path without shell metacharacters.",
                           "blocked");
    }
  }
  if (args->background) return background(*args, ctx, gate);
  auto result = run_foreground(
      {.command = args->command, .timeout_seconds = timeout, .workdir = args->workdir}, ctx);
  if (!result) {
    if (result.error().code == ErrorCode::kOutsideRoot) {
      return status_result("Blocked: " + result.error().message, "blocked");
    }
    if (result.error().code == ErrorCode::kUnavailable ||
        result.error().code == ErrorCode::kInvalidArgument) {
      // Backend faults (ssh unreachable, container gone) speak for themselves.
      return status_result(result.error().message, "error");
    }
    return status_result("Failed to execute command: " + result.error().message, "error");
  }
  std::string note;
  if (gate.verdict == approval::Verdict::kApproved) {
    note = approval::approval_note(gate.description);
    if (result->exit_code == 130) note.insert(note.size() - 1, ", then interrupted");
  }
  return foreground_json(*result, args->command, note);
}

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

void register_terminal(Registry& registry) {
  registry.add(ToolSpec{
      .name = "terminal",
      .toolset = "terminal",
      .description = kDescription,
      .input_schema = schema(),
      .annotations = {.read_only = false, .destructive = true, .open_world = true},
      .handler = terminal,
  });
}

}  // namespace hermes
