// SPDX-License-Identifier: MIT
// execute_code's handler: the interpreter and where the script runs (here
// over the Unix-socket RPC, or on the backend's target over the file RPC),
// the run, and the result as the model sees it (docs/tools/execute_code.md).
#include "tools/execute_code/execute_code.h"

#include "backend/command_fence.h"
#include "core/log.h"
#include "core/paths.h"
#include "core/strings.h"
#include "proc/child_env.h"
#include "registry/dispatcher.h"
#include "registry/session.h"
#include "registry/session_backend.h"
#include "tools/execute_code/exec_session.h"
#include "tools/execute_code/exec_settings.h"
#include "tools/execute_code/interpreter.h"
#include "tools/execute_code/kernel_pool.h"
#include "tools/execute_code/local_kernel.h"
#include "tools/execute_code/remote_run.h"
#include "tools/execute_code/script_run.h"
#include "tools/execute_code/stream_kernel.h"
#include "tools/execute_code/stub_module.h"
#include "tools/execute_code/tool_bridge.h"

#include <sys/stat.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <set>
#include <string>

namespace hermes::execute_code {
namespace {

constexpr const char* kInterruptedMarker = "\n[execution interrupted — user sent a new message]";

bool is_directory(const std::string& path) {
  struct stat st {};
  return !path.empty() && ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// Project mode runs where terminal() would (under a workspace root, never
// outside it); strict mode (empty) in staging.
std::string working_dir(ExecMode mode, const std::string& session_cwd,
                        const backend::CommandFence* fence) {
  if (mode == ExecMode::kStrict) return "";
  std::string dir = PathResolver::workspace(session_cwd);
  if (fence && !is_within(PathResolver::real_path(dir), fence->root())) dir = fence->root();
  return is_directory(dir) ? dir : "";
}

std::string working_dir(ExecMode mode, const registry::Session& session,
                        const backend::Backend& backend) {
  return working_dir(mode, session.cwd(), backend.command_fence());
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  return std::round(elapsed.count() * 100.0) / 100.0;
}

// The newest generation's truncation metadata, with the whole stdout saved to
// `$HERMES_HOME/cache/exec/stdout-<sha12>.txt`.
ScriptTruncation truncation(const StdoutView& view, const RunResult& run,
                            const ExecSettings& settings) {
  ScriptTruncation out{.captured_bytes = view.captured_bytes,
                       .total_bytes = view.total_bytes,
                       .omitted_bytes = view.omitted_bytes};
  if (!settings.spill_dir.empty()) {
    out.spill_path = write_spill(settings.spill_dir, run.output.stdout_capture, settings.redact);
  }
  out.warning = "stdout exceeded " + with_commas(kStdoutHeadBytes + kStdoutTailBytes) +
                " bytes; the middle was omitted." +
                (out.spill_path.empty() ? "" : " Full output saved to " + out.spill_path + ".");
  return out;
}

// What the kernel did to the session's state during the call.
struct KernelFate {
  bool in_kernel = false;  // the call ran in the session's kernel
  bool lost = false;       // which died or was killed: its state is gone
  bool memory = false;     // the cell went past the kernel's memory cap
};

std::string signal_or_code(int exit_code) {
  return exit_code < 0 ? "signal " + std::to_string(-exit_code)
                       : "exit code " + std::to_string(exit_code);
}

// How the run ended, as status, error and the notes appended to stdout.
void add_ending(ScriptRan& out, const RunResult& run, const ExecSettings& settings,
                const std::string& err, KernelFate fate) {
  const std::string lost = " The kernel's state is lost; the next call starts a fresh kernel.";
  if (run.end == RunEnd::kTimedOut) {
    out.status = ScriptStatus::kTimeout;
    std::string how = !fate.in_kernel ? " and was killed."
                      : fate.lost     ? " and was killed." + lost
                                      : " and was interrupted (KeyboardInterrupt); the kernel "
                                        "keeps its state.";
    out.error =
        Error::Timeout("Script timed out after " + std::to_string(settings.timeout_s) + "s" + how);
    out.output += (out.output.empty() ? "⏰ " : "\n\n⏰ ") + out.error->message;
  } else if (run.end == RunEnd::kInterrupted) {
    out.status = ScriptStatus::kInterrupted;
    out.error = Error::Cancelled("Script interrupted");
    out.output += kInterruptedMarker;
    if (fate.lost) {
      out.output += "\n[the cell did not stop after SIGINT and the kernel was killed:" + lost + "]";
    }
  } else if (fate.memory) {
    out.status = ScriptStatus::kError;
    out.error = Error::TooLarge(
        "The cell went past the kernel's memory limit "
        "(code_execution.kernel_memory_mb: " +
        std::to_string(settings.kernel_memory_mb) + ")." + lost);
    if (!err.empty()) out.output += "\n--- stderr ---\n" + err;
  } else if (fate.lost) {
    out.status = ScriptStatus::kError;
    out.error = Error::Internal("The Python kernel died (" + signal_or_code(run.exit_code) +
                                ") during this call." + lost);
    if (!err.empty()) out.output += "\n--- stderr ---\n" + err;
  } else if (run.exit_code != 0) {
    out.status = ScriptStatus::kError;
    out.error = Error::InvalidArgument(
        err.empty() ? "Script exited with code " + std::to_string(run.exit_code) : err);
    if (!err.empty()) out.output += "\n--- stderr ---\n" + err;
  }
}

ScriptRan script_ran(const RunResult& run, const ExecSettings& settings, int calls, double seconds,
                     KernelFate fate) {
  StdoutView view = assemble_stdout(run.output.stdout_capture);
  ScriptRan out{.output = clean_text(view.text, settings.redact),
                .tool_calls_made = calls,
                .duration_seconds = seconds};
  add_ending(out, run, settings,
             clean_text(assemble_stderr(run.output.stderr_capture), settings.redact), fate);
  if (view.truncated) out.truncation = truncation(view, run, settings);
  out.kernel_state_lost = fate.lost;
  return out;
}

std::vector<std::string> scrubbed_env(const ExecSettings& settings) {
  proc::ScrubbedEnv env =
      proc::scrub_environment(proc::current_environment(), settings.passthrough);
  if (!env.dropped_hermes.empty()) {
    std::string names;
    for (const std::string& name : env.dropped_hermes) names += (names.empty() ? "" : ", ") + name;
    log::debug("execute_code: dropped " + std::to_string(env.dropped_hermes.size()) +
               " non-allowlisted HERMES_* var(s): " + names +
               " (add them to terminal.env_passthrough to keep them)");
  }
  if (!settings.timezone.empty()) proc::set_env(env.kept, "TZ", settings.timezone);
  return env.kept;
}

std::string env_value(const char* name) {
  const char* value = std::getenv(name);
  return std::string(value ? value : "");
}

std::string interpreter_for(ExecMode mode, ExecSession& state) {
  auto probe = [&state](const std::string& program) {
    return state.probe_cached(program, probe_python);
  };
  return choose_interpreter(mode, env_value, probe);
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
                           RunContext run, const std::string& interpreter,
                           registry::CallContext& ctx, const backend::Backend& backend) {
  HERMES_ASSIGN_OR_RETURN(int fence_fd, backend::write_fence_fd(backend));
  RunRequest request{
      .code = code,
      .module_source = generate_module(sigs, RpcTransport::kSocket),
      .interpreter = interpreter,
      .cwd = working_dir(run.settings.mode, ctx.session, backend),
      .env = scrubbed_env(run.settings),
      .timeout = std::chrono::seconds(run.settings.timeout_s),
      .write_fence_fd = fence_fd,
      .write_capture = backend.write_capture(),
      .status = ctx.status,
  };
  if (const backend::CommandFence* fence = backend.command_fence()) {
    proc::set_env(request.env, "TMPDIR", fence->temp_dir());
  }
  return run_script(request, run.bridge, run.stop);
}

// The names the environment scrub (docs/tools/execute_code.md) drops from the server's environment.
std::vector<std::string> dropped_names(const ExecSettings& settings) {
  std::vector<std::string> parent = proc::current_environment();
  std::set<std::string> kept;
  for (const std::string& entry : proc::scrub_environment(parent, settings.passthrough).kept) {
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
                            RunContext run, backend::Backend& backend) {
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

// Why a call runs in a fresh kernel, as the result's `fresh_kernel` says it.
std::optional<std::string> fresh_text(FreshReason why, const ExecSettings& settings) {
  switch (why) {
    case FreshReason::kNone:
      return std::nullopt;
    case FreshReason::kFirstUse:
      return "first call of this session";
    case FreshReason::kReset:
      return "reset: true";
    case FreshReason::kDied:
      return "the previous kernel died or was killed";
    case FreshReason::kMemory:
      return "the previous kernel went past its memory limit (code_execution.kernel_memory_mb: " +
             std::to_string(settings.kernel_memory_mb) + ") and was stopped";
    case FreshReason::kIdle:
      return "the previous kernel was idle for " + std::to_string(settings.kernel_idle_timeout_s) +
             "s and was stopped";
    case FreshReason::kEvicted:
      return "the previous kernel was stopped to make room (code_execution.max_kernels: " +
             std::to_string(settings.max_kernels) + ")";
  }
  return std::nullopt;
}

// What a kernel run adds to the result.
struct KernelNotes {
  KernelFate fate;
  std::optional<std::string> fresh;
  std::vector<std::string> images;
};

// What a kernel of this host was started as, for KernelPool::take_spare.
// The working directory is left out: a spare is moved to the session's
// (adopt_spare).
std::string spare_key(const KernelSpec& spec) {
  std::string all =
      spec.module_source + '\0' + spec.interpreter + '\0' + std::to_string(spec.memory_bytes);
  for (const std::string& entry : spec.env) all += '\0' + entry;
  return all;
}

// The kernel spec for this host when no write fence applies (no `--root`):
// what a pre-started spare is started as, and what a session's first call
// compares it with.
KernelSpec unfenced_spec(const std::vector<StubSignature>& sigs, const ExecSettings& settings,
                         const std::string& interpreter, const std::string& cwd) {
  return KernelSpec{
      .module_source = generate_module(sigs, RpcTransport::kSocket),
      .interpreter = interpreter,
      .cwd = cwd,
      .env = scrubbed_env(settings),
      .memory_bytes = static_cast<uint64_t>(settings.kernel_memory_mb) << 20,
  };
}

// A spare started before the session knew its cwd: a setup cell moves it
// there (the path as hex bytes, so any name survives) and leaves no name
// behind. A spare that fails it is dropped (nullptr).
std::unique_ptr<Kernel> adopt_spare(std::unique_ptr<Kernel> spare, const std::string& cwd) {
  if (cwd.empty()) return spare;
  std::string hex = hex_encode(cwd);
  BridgeSlot no_tools;
  std::stop_source stop;
  CellResult moved =
      spare->run_cell({.code = "import os as _o\n_o.chdir(bytes.fromhex('" + hex + "'))\ndel _o",
                       .timeout = std::chrono::seconds(10)},
                      no_tools, stop);
  if (moved.kernel_lost || moved.run.exit_code != 0) return nullptr;
  return spare;
}

// Starts the session's kernel on this host, under the containment of
// run_here; a pre-started spare started the same way stands in for it.
KernelSlot::Starter local_starter(const std::vector<StubSignature>& sigs,
                                  const ExecSettings& settings, const std::string& interpreter,
                                  registry::CallContext& ctx, const backend::Backend& backend) {
  return [&]() -> Result<std::unique_ptr<Kernel>> {
    HERMES_ASSIGN_OR_RETURN(int fence_fd, backend::write_fence_fd(backend));
    KernelSpec spec = unfenced_spec(sigs, settings, interpreter,
                                    working_dir(settings.mode, ctx.session, backend));
    spec.write_fence_fd = fence_fd;
    spec.write_capture = backend.write_capture();
    if (const backend::CommandFence* fence = backend.command_fence()) {
      proc::set_env(spec.env, "TMPDIR", fence->temp_dir());
    }
    // A spare was started without the capture: only a tree started with it
    // has its changes kept.
    if (fence_fd < 0 && !spec.write_capture) {
      auto spare = KernelPool::shared()->take_spare(spare_key(spec));
      if (spare && (spare = adopt_spare(std::move(spare), spec.cwd))) return spare;
    }
    return LocalKernel::start(spec);
  };
}

// Starts the session's kernel on the backend's target, over its stream. It
// starts where a terminal command would (project mode) or in the target's
// temp directory (strict); the environment is the target's, less what the
// scrub drops when the target is this host (as run_there).
KernelSlot::Starter stream_starter(const std::vector<StubSignature>& sigs,
                                   const ExecSettings& settings, registry::CallContext& ctx,
                                   const std::shared_ptr<backend::Backend>& backend,
                                   std::stop_token stop) {
  return [&, stop]() -> Result<std::unique_ptr<Kernel>> {
    std::string cwd = settings.mode == ExecMode::kStrict ? backend->temp_dir() : ctx.session.cwd();
    StreamKernelSpec spec{
        .module_source = generate_module(sigs, RpcTransport::kStream),
        .cwd = cwd.empty() ? backend->default_cwd() : cwd,
        .timezone = settings.timezone,
        .unset_names =
            backend->name() == "local" ? dropped_names(settings) : std::vector<std::string>{},
        .memory_bytes = static_cast<uint64_t>(settings.kernel_memory_mb) << 20,
    };
    return StreamKernel::start(backend, spec, stop);
  };
}

// The default: the code runs as a cell of the session's kernel, started on
// first use (or after a reset, a death, reaping or eviction) by `start`.
Result<RunResult> run_in_kernel(const ExecuteCodeParams& params, RunContext run,
                                registry::CallContext& ctx, const KernelSlot::Starter& start,
                                KernelNotes& notes) {
  const ExecSettings& settings = run.settings;
  KernelPool::shared()->set_limits(
      {.max_kernels = static_cast<size_t>(settings.max_kernels),
       .idle_timeout = std::chrono::seconds(settings.kernel_idle_timeout_s)});
  std::optional<KernelSlot::Lease> lease =
      ctx.session.state<ExecSession>().kernel_slot().acquire(run.stop.get_token());
  if (!lease) return Error::Cancelled("Script interrupted before it started");
  if (params.reset) lease->reset();
  HERMES_ASSIGN_OR_RETURN(Kernel * kernel, lease->kernel(start));
  CellResult cell = kernel->run_cell(
      {.code = params.code,
       .timeout = std::chrono::seconds(settings.timeout_s),
       .grace = std::chrono::milliseconds(static_cast<int64_t>(settings.interrupt_grace_s * 1000)),
       .status = ctx.status},
      run.bridge, run.stop);
  if (cell.kernel_lost)
    lease->lost(cell.memory_exceeded ? FreshReason::kMemory : FreshReason::kDied);
  notes.fate = {.in_kernel = true, .lost = cell.kernel_lost, .memory = cell.memory_exceeded};
  notes.fresh = fresh_text(lease->fresh(), settings);
  notes.images = std::move(cell.images);
  return std::move(cell.run);
}

}  // namespace

void prestart_kernel(const registry::Registry& registry, const registry::Services& services) {
  ExecSettings settings = read_settings(services.config);
  if (!settings.kernel || !settings.prestart_kernel || runs_elsewhere(services.config)) return;
  KernelPool::shared()->set_limits(
      {.max_kernels = static_cast<size_t>(settings.max_kernels),
       .idle_timeout = std::chrono::seconds(settings.kernel_idle_timeout_s)});
  std::vector<StubSignature> sigs = stub_signatures(sandbox_tools(registry, services));
  KernelPool::shared()->offer_spare([settings, sigs]() -> Result<SpareKernel> {
    std::string interpreter = choose_interpreter(settings.mode, env_value, probe_python);
    if (interpreter.empty()) return Error::Unavailable(kSandboxUnavailable);
    // A new session's cwd is unset; no fence (the spare is refused under one).
    KernelSpec spec =
        unfenced_spec(sigs, settings, interpreter, working_dir(settings.mode, "", nullptr));
    HERMES_ASSIGN_OR_RETURN(std::unique_ptr<Kernel> kernel, LocalKernel::start(spec));
    return SpareKernel{spare_key(spec), std::move(kernel)};
  });
}

Result<ExecuteCodeOutput> run_execute_code(const ExecuteCodeParams& params,
                                           registry::CallContext& ctx) {
  auto start = std::chrono::steady_clock::now();
  ExecSession& state = ctx.session.state<ExecSession>();
  ExecSettings settings = read_settings(ctx.services.config);
  if (!settings.mode_valid && state.first_mode_warning()) {
    log::warn("code_execution.mode: unknown value, using 'project'");
  }
  auto backend = registry::session_backend(ctx);
  if (!backend) return ExecuteCodeOutput(ScriptFailed{backend.error(), 0, seconds_since(start)});
  const bool here = (*backend)->native_files();
  std::string interpreter = here ? interpreter_for(settings.mode, state) : "";
  if (here && interpreter.empty()) return Error::Unavailable(kSandboxUnavailable);
  std::vector<const registry::ToolSpec*> tools =
      sandbox_tools(ctx.dispatcher.registry(), ctx.services);
  std::vector<StubSignature> sigs = stub_signatures(tools);
  std::stop_source run_stop;
  auto guard = state.register_run(run_stop);
  std::stop_callback forward(ctx.stop, [&run_stop] { run_stop.request_stop(); });
  ToolBridge bridge(std::move(tools), static_cast<int>(settings.max_tool_calls), ctx,
                    run_stop.get_token());
  RunContext run_context{settings, bridge, run_stop};
  KernelNotes kernel;
  auto run = settings.kernel
                 ? run_in_kernel(
                       params, run_context, ctx,
                       here ? local_starter(sigs, settings, interpreter, ctx, **backend)
                            : stream_starter(sigs, settings, ctx, *backend, run_stop.get_token()),
                       kernel)
             : here ? run_here(params.code, sigs, run_context, interpreter, ctx, **backend)
                    : run_there(params.code, sigs, run_context, **backend);
  if (!run) {
    return ExecuteCodeOutput(ScriptFailed{run.error(), bridge.calls_made(), seconds_since(start)});
  }
  ScriptRan out =
      script_ran(*run, settings, bridge.calls_made(), seconds_since(start), kernel.fate);
  out.notice = backend::fence_notice(**backend);
  out.fresh_kernel = std::move(kernel.fresh);
  out.images = std::move(kernel.images);
  return ExecuteCodeOutput(std::move(out));
}

const Error* execute_code_failure(const ExecuteCodeOutput& output) {
  if (const auto* failed = std::get_if<ScriptFailed>(&output)) return &failed->error;
  const auto& error = std::get<ScriptRan>(output).error;
  return error ? &*error : nullptr;
}

}  // namespace hermes::execute_code
