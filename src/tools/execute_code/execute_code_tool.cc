// SPDX-License-Identifier: MIT
// execute_code: registration, the per-session description, argument parsing
// and the result JSON (docs/tools/execute_code.md). The run itself
// lives in script_run.cc.
#include "backend/command_fence.h"
#include "core/config.h"
#include "core/json.h"
#include "core/log.h"
#include "core/paths.h"
#include "core/redact.h"
#include "core/strings.h"
#include "proc/child_env.h"
#include "registry/dispatcher.h"
#include "registry/registry.h"
#include "registry/session.h"
#include "tools/execute_code/exec_session.h"
#include "tools/execute_code/interpreter.h"
#include "tools/execute_code/remote_run.h"
#include "tools/execute_code/script_run.h"
#include "tools/execute_code/stub_module.h"
#include "tools/execute_code/tool_bridge.h"
#include "tools/file_common/session_backend.h"

#include <sys/stat.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>
#include <string>

namespace hermes {
namespace {

using namespace execute_code;  // NOLINT: this file is the folder's edge
using namespace proc;          // NOLINT: the environment filters

constexpr const char* kInterruptedMarker = "\n[execution interrupted — user sent a new message]";

// The settings of one run, read from config at call time.
struct ExecSettings {
  int64_t timeout_s = 300;
  int64_t max_tool_calls = 50;
  ExecMode mode = ExecMode::kProject;
  bool mode_valid = true;  // false: an unknown mode fell back to project
  std::vector<std::string> passthrough;
  bool redact = true;
  std::string spill_dir;  // empty: no spill file
  std::string timezone;   // `timezone` / HERMES_TIMEZONE, passed as TZ
};

ExecSettings read_settings(const Config& config) {
  ExecSettings s;
  s.timeout_s = config.get_int("code_execution.timeout", 300);
  if (s.timeout_s <= 0) s.timeout_s = 300;
  s.max_tool_calls = config.get_int("code_execution.max_tool_calls", 50);
  if (s.max_tool_calls < 0) s.max_tool_calls = 50;
  ParsedMode parsed = parse_mode(config.get_string("code_execution.mode", "project"));
  s.mode = parsed.mode;
  s.mode_valid = parsed.valid;
  s.passthrough = config.get_string_list("terminal.env_passthrough");
  s.redact = redaction_enabled(config);
  if (!config.home().empty()) s.spill_dir = config.home() + "/cache/exec";
  s.timezone = config.get_string("timezone", "", "HERMES_TIMEZONE");
  return s;
}

// Whether scripts run on another backend, which brings its own python3: the
// file tools' rule (docs/ARCHITECTURE.md, Backends), read from the same keys make_backend uses.
bool runs_elsewhere(const Config& config) {
  return config.get_string("terminal.backend", "local", "TERMINAL_ENV") != "local" ||
         config.get_bool("terminal.portable_files", false);
}

bool is_directory(const std::string& path) {
  struct stat st {};
  return !path.empty() && ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// Project mode runs where terminal() would (under a workspace root, never
// outside it); strict mode (empty) in staging.
std::string working_dir(ExecMode mode, const Session& session, const Backend& backend) {
  if (mode == ExecMode::kStrict) return "";
  std::string dir = PathResolver::workspace(session.cwd());
  const CommandFence* fence = backend.command_fence();
  if (fence && !is_within(PathResolver::real_path(dir), fence->root())) dir = fence->root();
  return is_directory(dir) ? dir : "";
}

std::vector<StubSignature> signatures(const std::vector<const ToolSpec*>& tools) {
  std::vector<StubSignature> out;
  for (const ToolSpec* spec : tools) {
    const std::set<std::string> none;
    out.push_back(
        signature_from_schema(spec->name, spec->input_schema,
                              spec->name == "terminal" ? terminal_stripped_args() : none));
  }
  return out;
}

// --- description -----------------------------------------------------------

std::string return_note(const ToolSpec& spec) {
  static const std::map<std::string, std::string> kNotes = {
      {"web_search", "Returns {\"data\": {\"web\": [{\"url\", \"title\", \"description\"}, ...]}}"},
      {"web_extract", "Returns {\"results\": [{\"url\", \"title\", \"content\", \"error\"}, ...]}"},
      {"read_file", "Lines are 1-indexed. Returns {\"content\": \"...\", \"total_lines\": N}"},
      {"write_file", "Always overwrites the entire file. Returns {\"bytes_written\": N}"},
      {"search_files",
       "target: \"content\" (search inside files) or \"files\" (find files "
       "by name). Returns {\"matches\": [...]} or {\"files\": [...]}"},
      {"patch", "Replaces old_string with new_string in the file, or applies a V4A patch."},
      {"terminal",
       "Foreground only (no background or pty). Returns {\"output\": \"...\", "
       "\"exit_code\": N}"},
  };
  if (auto it = kNotes.find(spec.name); it != kNotes.end()) return it->second;
  // A tool added later: the first sentence of its own description.
  size_t end = spec.description.find(". ");
  return end == std::string::npos ? spec.description : spec.description.substr(0, end + 1);
}

std::string limits_line(const ExecSettings& s) {
  std::string timeout = s.timeout_s % 60 == 0 ? std::to_string(s.timeout_s / 60) + "-minute"
                                              : std::to_string(s.timeout_s) + "-second";
  return "Limits: " + timeout + " timeout, 50KB stdout cap, max " +
         std::to_string(s.max_tool_calls) +
         " tool calls per script. terminal() is "
         "foreground-only (no background or pty).";
}

std::string describe(const Registry& registry, const Services& services) {
  ExecSettings settings = read_settings(services.config);
  std::vector<const ToolSpec*> tools = sandbox_tools(registry, services);
  std::string text =
      "Run a Python script that can call Hermes tools programmatically. Use this when you "
      "need 3+ tool calls with processing logic between them, need to filter/reduce large "
      "tool outputs before they enter your context, need conditional branching (if X then Y "
      "else Z), or need to loop (fetch N pages, process N files, retry on failure).\n\n"
      "Use normal tool calls instead when: single tool call with no processing, you need to "
      "see the full result and apply complex reasoning, or the task requires interactive user "
      "input.\n\nAvailable via `from hermes_tools import ...`:\n\n";
  std::vector<StubSignature> sigs = signatures(tools);
  for (size_t i = 0; i < tools.size(); ++i) {
    text += "  " + render_signature(sigs[i]) + " -> dict\n    " + return_note(*tools[i]) + "\n";
  }
  text += "\n" + limits_line(settings) + "\n\n";
  text += runs_elsewhere(services.config)
              ? "Scripts run with the terminal backend's python3, in a private temporary "
                "directory on that machine: open files there by absolute path (tool calls "
                "resolve paths as usual).\n\n"
          : settings.mode == ExecMode::kStrict
              ? "Scripts run in a temporary staging directory, isolated from the project: use "
                "absolute paths.\n\n"
              : "Scripts run in the session's working directory (the same as terminal()), with "
                "the active virtualenv's Python when there is one.\n\n";
  text +=
      "Print your final result to stdout: only printed output comes back. Use Python stdlib "
      "(json, re, math, csv, datetime, collections, etc.) for processing between tool calls.\n\n"
      "Helpers (import them from hermes_tools too):\n"
      "  json_parse(text: str) — json.loads with strict=False; use for terminal() output with "
      "control chars\n"
      "  shell_quote(s: str) — shlex.quote(); use when interpolating dynamic strings into "
      "shell commands\n"
      "  retry(fn, max_attempts=3, delay=2) — retry with exponential backoff for transient "
      "failures\n\n"
      "Example:\n"
      "  from hermes_tools import read_file\n"
      "  lines = read_file(\"README.md\")[\"content\"].splitlines()\n"
      "  print(len(lines))";
  return text;
}

// --- result ----------------------------------------------------------------

double seconds_since(std::chrono::steady_clock::time_point start) {
  std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  return std::round(elapsed.count() * 100.0) / 100.0;
}

// The newest generation's truncation metadata, with the whole stdout saved to
// `$HERMES_HOME/cache/exec/stdout-<sha12>.txt`.
void add_truncation(Json& result, const StdoutView& view, const RunResult& run,
                    const ExecSettings& settings) {
  result["stdout_truncated"] = true;
  result["stdout_bytes_captured"] = view.captured_bytes;
  result["stdout_bytes_total"] = view.total_bytes;
  result["stdout_bytes_omitted"] = view.omitted_bytes;
  std::string path =
      settings.spill_dir.empty()
          ? ""
          : write_spill(settings.spill_dir, run.output.stdout_capture, settings.redact);
  result["warning"] = "stdout exceeded " + with_commas(kStdoutHeadBytes + kStdoutTailBytes) +
                      " bytes; the middle was omitted." +
                      (path.empty() ? "" : " Full output saved to " + path + ".");
  if (!path.empty()) result["stdout_spill_path"] = path;
}

Json result_json(const RunResult& run, const ExecSettings& settings, int calls, double seconds) {
  StdoutView view = assemble_stdout(run.output.stdout_capture);
  std::string out = clean_text(view.text, settings.redact);
  std::string err = clean_text(assemble_stderr(run.output.stderr_capture), settings.redact);
  Json result = Json::object();
  std::string error;
  std::string status = "success";
  if (run.end == RunEnd::kTimedOut) {
    status = "timeout";
    error = "Script timed out after " + std::to_string(settings.timeout_s) + "s and was killed.";
    out += (out.empty() ? "⏰ " : "\n\n⏰ ") + error;
  } else if (run.end == RunEnd::kInterrupted) {
    status = "interrupted";
    out += kInterruptedMarker;
  } else if (run.exit_code != 0) {
    status = "error";
    error = err.empty() ? "Script exited with code " + std::to_string(run.exit_code) : err;
    if (!err.empty()) out += "\n--- stderr ---\n" + err;
  }
  result["status"] = status;
  result["output"] = out;
  result["tool_calls_made"] = calls;
  result["duration_seconds"] = seconds;
  if (!error.empty()) result["error"] = error;
  if (view.truncated) add_truncation(result, view, run, settings);
  return result;
}

Json failure_json(const std::string& message, int calls, double seconds) {
  Json result = Json::object();
  result["status"] = "error";
  result["error"] = message;
  result["tool_calls_made"] = calls;
  result["duration_seconds"] = seconds;
  return result;
}

// --- handler ---------------------------------------------------------------

std::vector<std::string> scrubbed_env(const ExecSettings& settings) {
  ScrubbedEnv env = scrub_environment(current_environment(), settings.passthrough);
  if (!env.dropped_hermes.empty()) {
    std::string names;
    for (const std::string& name : env.dropped_hermes) names += (names.empty() ? "" : ", ") + name;
    log::debug("execute_code: dropped " + std::to_string(env.dropped_hermes.size()) +
               " non-allowlisted HERMES_* var(s): " + names +
               " (add them to terminal.env_passthrough to keep them)");
  }
  if (!settings.timezone.empty()) set_env(env.kept, "TZ", settings.timezone);
  return env.kept;
}

std::string interpreter_for(ExecMode mode, ExecSession& state) {
  auto getenv = [](const char* name) {
    const char* value = std::getenv(name);
    return std::string(value ? value : "");
  };
  auto probe = [&state](const std::string& program) {
    return state.probe_cached(program, probe_python);
  };
  return choose_interpreter(mode, getenv, probe);
}

constexpr const char* kSandboxUnavailable =
    "execute_code sandbox is unavailable in this environment. Use normal tool calls "
    "(terminal, read_file, write_file, ...) instead.";

// What every run needs besides the code: the settings, the bridge that
// answers the script's calls, and the stop source that interrupts it.
struct RunContext {
  const ExecSettings& settings;
  ToolBridge& bridge;
  std::stop_source& stop;
};

// The classic path: a child process of `interpreter` here, with the
// Unix-socket RPC.
// Under a workspace root the script's tree is write-fenced like a terminal
// command, with the session's private TMPDIR.
Result<RunResult> run_here(const std::string& code, const std::vector<StubSignature>& sigs,
                           RunContext run, const std::string& interpreter, CallContext& ctx,
                           const Backend& backend) {
  HERMES_ASSIGN_OR_RETURN(int fence_fd, write_fence_fd(backend));
  RunRequest request{
      .code = code,
      .module_source = generate_module(sigs, RpcTransport::kSocket),
      .interpreter = interpreter,
      .cwd = working_dir(run.settings.mode, ctx.session, backend),
      .env = scrubbed_env(run.settings),
      .timeout = std::chrono::seconds(run.settings.timeout_s),
      .write_fence_fd = fence_fd,
  };
  if (const CommandFence* fence = backend.command_fence()) {
    set_env(request.env, "TMPDIR", fence->temp_dir());
  }
  return run_script(request, run.bridge, run.stop);
}

// The names the environment scrub (docs/tools/execute_code.md) drops from the server's environment.
std::vector<std::string> dropped_names(const ExecSettings& settings) {
  std::vector<std::string> parent = current_environment();
  std::set<std::string> kept;
  for (const std::string& entry : scrub_environment(parent, settings.passthrough).kept) {
    kept.insert(entry.substr(0, entry.find('=')));
  }
  std::vector<std::string> out;
  for (const std::string& entry : parent) {
    std::string name = entry.substr(0, entry.find('='));
    if (!kept.count(name)) out.push_back(std::move(name));
  }
  return out;
}

// Any other backend (or local with portable files): the file RPC (docs/tools/execute_code.md). On
// this host the target's environment is the server's own, so the script
// loses what the classic path's scrub would drop; elsewhere the target's
// environment is its own.
Result<RunResult> run_there(const std::string& code, const std::vector<StubSignature>& sigs,
                            RunContext run, Backend& backend) {
  RemoteRunRequest request{
      .code = code,
      .module_source = generate_module(sigs, RpcTransport::kFiles),
      .timezone = run.settings.timezone,
      .unset_names =
          backend.name() == "local" ? dropped_names(run.settings) : std::vector<std::string>{},
      .timeout = std::chrono::seconds(run.settings.timeout_s),
  };
  return run_remote_script(backend, request, run.bridge, run.stop);
}

Json handle_execute_code(const Json& args, CallContext& ctx) {
  auto start = std::chrono::steady_clock::now();
  auto code = args.find("code");
  if (code == args.end() || !code->is_string() ||
      code->get_ref<const std::string&>().find_first_not_of(" \t\r\n") == std::string::npos) {
    return error_json("No code provided.");
  }
  ExecSession& state = ctx.session.state<ExecSession>();
  ExecSettings settings = read_settings(ctx.services.config);
  if (!settings.mode_valid && state.first_mode_warning()) {
    log::warn("code_execution.mode: unknown value, using 'project'");
  }
  auto backend = session_backend(ctx);
  if (!backend) return failure_json(backend.error().message, 0, seconds_since(start));
  const bool here = (*backend)->native_files();
  std::string interpreter = here ? interpreter_for(settings.mode, state) : "";
  if (here && interpreter.empty()) return error_json(kSandboxUnavailable);
  std::vector<const ToolSpec*> tools = sandbox_tools(ctx.dispatcher.registry(), ctx.services);
  std::vector<StubSignature> sigs = signatures(tools);
  std::stop_source run_stop;
  auto guard = state.register_run(run_stop);
  std::stop_callback forward(ctx.stop, [&run_stop] { run_stop.request_stop(); });
  ToolBridge bridge(std::move(tools), static_cast<int>(settings.max_tool_calls), ctx,
                    run_stop.get_token());
  RunContext run_context{settings, bridge, run_stop};
  auto run =
      here ? run_here(code->get<std::string>(), sigs, run_context, interpreter, ctx, **backend)
           : run_there(code->get<std::string>(), sigs, run_context, **backend);
  if (!run) return failure_json(run.error().message, bridge.calls_made(), seconds_since(start));
  Json result = result_json(*run, settings, bridge.calls_made(), seconds_since(start));
  if (auto notice = fence_notice(**backend)) result["notice"] = *notice;
  return result;
}

Json schema() {
  return Json::parse(R"json({
    "type": "object",
    "properties": {
      "code": {"type": "string", "description": "Python code to execute. Import tools with `from hermes_tools import read_file, terminal, ...` and print your final result to stdout."}
    },
    "required": ["code"]
  })json");
}

}  // namespace

void register_execute_code(Registry& registry) {
  const Registry* owner = &registry;
  registry.add(ToolSpec{
      .name = "execute_code",
      .toolset = "code",
      .description = "Run a Python script that can call Hermes tools programmatically.",
      .input_schema = schema(),
      .annotations =
          {.read_only = false, .destructive = true, .idempotent = false, .open_world = true},
      .handler = handle_execute_code,
      .is_available =
          [](const Services& services) {
            return !system_python().empty() || runs_elsewhere(services.config);
          },
      .describe = [owner](const Services& services,
                          const std::string&) { return describe(*owner, services); },
  });
}

}  // namespace hermes
