// SPDX-License-Identifier: MIT
// start_background and the event → MCP notification mapping.
#include "tools/terminal/background.h"

#include "backend/command_fence.h"
#include "backend/run_bash.h"
#include "core/ansi.h"
#include "core/config.h"
#include "core/strings.h"
#include "registry/checkpoint_hook.h"
#include "registry/client_channel.h"
#include "registry/session.h"
#include "registry/session_backend.h"
#include "registry/tool.h"
#include "tools/background_jobs/background_jobs.h"
#include "tools/background_jobs/job_output.h"
#include "tools/terminal/foreground.h"
#include "tools/terminal/output_pipeline.h"
#include "tools/terminal/terminal_state.h"

namespace hermes::terminal {
namespace {

// The event's texts as the notice carries them: ANSI stripped, UTF-8
// sanitised, redacted; a completion's output cut to its last 2000 bytes.
ProcessNotice clean_event(const proc::ProcessEvent& e, const OutputOptions& options) {
  ProcessNotice notice{.event = e};
  notice.event.command = background_jobs::redact_output(e.command, options.redaction);
  std::string text =
      background_jobs::redact_output(trim(strip_ansi(sanitize_utf8(e.output))), options.redaction);
  if (e.kind == proc::ProcessEvent::Kind::kCompletion && utf8_length(text) > 2000) {
    text = text.substr(text.size() - 2000);
    notice.output_cut = true;
  }
  notice.event.output = std::move(text);
  return notice;
}

}  // namespace

Result<BackgroundStarted> start_background(const BackgroundRequest& request,
                                           registry::CallContext& ctx) {
  HERMES_ASSIGN_OR_RETURN(std::shared_ptr<backend::Backend> backend,
                          registry::session_backend(ctx));
  ShellSession& shell = ctx.session.state<TerminalState>().shell();
  proc::ProcessRegistry& jobs = background_jobs::session_jobs(ctx.session);
  OutputOptions options = output_options(ctx.services.config, request.command);
  // The job outlives this call, so its events take the session's channel.
  registry::ClientChannel* client = &ctx.client.session_channel();
  // Killing the local ssh/docker client leaves the command running there.
  std::string tag = backend->outlives_its_launcher() ? random_hex(8) : "";
  HERMES_ASSIGN_OR_RETURN(int fence_fd, backend::write_fence_fd(*backend));
  // Alive until the job's supervisor has its own copies of the descriptors.
  std::shared_ptr<const proc::WriteCapture> capture = backend->write_capture();
  const std::chrono::milliseconds grace = kill_grace(ctx.services.config);
  proc::StartRequest start{
      .spawn = {.argv = shell.background_argv(request.command, request.cwd, backend, grace, tag),
                .env = backend->launch_env(),
                .cwd = "/",
                .stdin_mode = proc::StdinMode::kPipe,
                .terminal = request.pty ? proc::TerminalMode::kPty : proc::TerminalMode::kPipe,
                .whole_tree = backend->runs_on_this_host(),
                .write_fence_fd = fence_fd,
                .write_capture = backend->runs_on_this_host() ? capture.get() : nullptr},
      .command = request.command,
      .cwd = request.cwd,
      .notify_on_complete = request.notify_on_complete,
      .watch_patterns = request.watch_patterns,
      .kill_grace = grace,
      .on_event =
          [client, options](const proc::ProcessEvent& e) {
            send_process_notice(*client, clean_event(e, options));
          },
  };
  if (!tag.empty()) {
    start.on_cut_short = [backend, tag] {
      (void)backend::run_bash(
          *backend, {.script = kill_tagged_script(tag), .timeout = std::chrono::seconds(5)}, {},
          [](std::string_view) {});
    };
  }
  auto id = jobs.start(std::move(start));
  if (!id && request.pty) {
    // No pty available: fall back to pipe mode, as upstream does.
    return start_background(
        {request.command, request.cwd, false, request.notify_on_complete, request.watch_patterns},
        ctx);
  }
  if (!id) return id.error();
  auto snap = jobs.snapshot(*id);
  if (snap) registry::checkpoint_job_started(snap->pid, ctx);
  return BackgroundStarted{*id, snap ? snap->pid : -1};
}

}  // namespace hermes::terminal
