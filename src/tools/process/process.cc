// SPDX-License-Identifier: MIT
// process: list/poll/log/wait/kill/write/submit/close over the session's
// background jobs (docs/terminal.md). All output is ANSI-stripped and
// redacted, the `command` field included.
#include "tools/process/process.h"

#include "core/config.h"
#include "core/strings.h"
#include "registry/session.h"
#include "tools/background_jobs/background_jobs.h"
#include "tools/background_jobs/job_output.h"

#include <algorithm>
#include <string>

namespace hermes::process {
namespace {

using proc::ProcessSnapshot;

int64_t uptime(const ProcessSnapshot& s) {
  auto end = s.running ? std::chrono::system_clock::now() : s.exited_at;
  return std::chrono::duration_cast<std::chrono::seconds>(end - s.started_at).count();
}

// `s` with its command (cut to `command_cap` bytes first) and output cleaned.
ProcessSnapshot cleaned(ProcessSnapshot s, registry::CallContext& ctx,
                        size_t command_cap = std::string::npos) {
  s.command =
      background_jobs::clean_process_output(s.command.substr(0, command_cap), ctx.services.config);
  s.output = background_jobs::clean_process_output(s.output, ctx.services.config);
  return s;
}

ProcessView view_of(const ProcessSnapshot& s, registry::CallContext& ctx,
                    size_t command_cap = std::string::npos) {
  return ProcessView{cleaned(s, ctx, command_cap), uptime(s)};
}

ProcessLog log_page(ProcessView view, const ProcessParams& params) {
  std::vector<std::string> lines;
  const std::string& text = view.snapshot.output;
  size_t start = 0;
  for (size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1) {
    lines.push_back(text.substr(start, nl - start));
  }
  if (start < text.size()) lines.push_back(text.substr(start));
  auto total = static_cast<int64_t>(lines.size());
  // No offset: the last `limit` lines. offset=0 follows the newest: the head.
  int64_t from = params.offset ? std::clamp<int64_t>(*params.offset, 0, total)
                               : std::max<int64_t>(0, total - params.limit);
  int64_t to = std::min<int64_t>(total, from + params.limit);
  std::string page;
  for (int64_t i = from; i < to; ++i)
    page += lines[static_cast<size_t>(i)] + (i + 1 < to ? "\n" : "");
  return ProcessLog{std::move(view), std::move(page), total, to - from};
}

ProcessOutput not_found(const std::string& id) {
  return ProcessRefused{Error::NotFound("No process with ID " + id)};
}

ProcessOutput wait(const std::string& id, const ProcessParams& params, registry::CallContext& ctx) {
  proc::ProcessRegistry& reg = background_jobs::session_jobs(ctx.session);
  int64_t limit = ctx.services.config.get_int("terminal.timeout", 180, "TERMINAL_TIMEOUT");
  ProcessWait out{.waited_seconds = params.timeout.value_or(limit)};
  if (out.waited_seconds <= 0) {
    return ProcessRefused{Error::InvalidArgument("timeout must be positive (got " +
                                                 std::to_string(out.waited_seconds) + ")")};
  }
  if (out.waited_seconds > limit) {
    out.clamp_note = "Requested wait of " + std::to_string(out.waited_seconds) +
                     "s was clamped to configured limit of " + std::to_string(limit) + "s";
    out.waited_seconds = limit;
  }
  bool exited = reg.wait(id, std::chrono::seconds(out.waited_seconds), ctx.stop);
  auto s = reg.snapshot(id);
  if (!s) return not_found(id);
  out.snapshot = cleaned(*s, ctx);
  if (exited) {
    reg.mark_read(id);
  } else if (ctx.stop.stop_requested()) {
    out.error = Error::Cancelled("User sent a new message -- wait interrupted");
  } else {
    out.error = Error::Timeout("Process still running after " + std::to_string(out.waited_seconds) +
                               "s wait; this is not an error. Poll or wait again later.");
  }
  return out;
}

// What a kill that left something behind says: the contract's "Kill
// incomplete" error, never `killed`.
Error incomplete_kill(const proc::KillReport& report) {
  std::string why =
      report.untracked
          ? "the command killed the supervisor that tracks its processes, and some of them "
            "could not be ended"
          : std::to_string(report.survivors.size()) + " process(es) still alive after SIGKILL";
  return Error::Io("Kill incomplete: " + why);
}

ProcessOutput kill(const std::string& id, registry::CallContext& ctx) {
  proc::ProcessRegistry& reg = background_jobs::session_jobs(ctx.session);
  auto grace = std::chrono::milliseconds(static_cast<int64_t>(
      1000 * ctx.services.config.get_double("terminal.daemon_term_grace_seconds", 2.0)));
  ProcessKill out{.id = id, .report = reg.kill(id, grace)};
  out.snapshot = reg.snapshot(id);
  if (out.snapshot)
    out.output = background_jobs::clean_process_output(out.snapshot->output, ctx.services.config);
  if (!out.report.complete()) out.error = incomplete_kill(out.report);
  return out;
}

ProcessOutput stdin_done(const Status& status, ProcessStdinDone done) {
  if (status) return done;
  if (status.error().code == ErrorCode::kConflict) {
    return ProcessRefused{Error{ErrorCode::kConflict, "Process has already finished"}};
  }
  if (status.error().code == ErrorCode::kTimeout) return ProcessRefused{status.error()};
  return ProcessRefused{
      Error::Unavailable("Process stdin not available (non-local backend or stdin closed)")};
}

ProcessOutput act(const std::string& id, const ProcessParams& params, registry::CallContext& ctx) {
  proc::ProcessRegistry& reg = background_jobs::session_jobs(ctx.session);
  switch (params.action) {
    case ProcessAction::kWait:
      return wait(id, params, ctx);
    case ProcessAction::kKill:
      return kill(id, ctx);
    case ProcessAction::kWrite:
      return stdin_done(reg.write(id, params.data), {utf8_length(params.data), ""});
    case ProcessAction::kSubmit:
      return stdin_done(reg.write(id, params.data + "\n"), {utf8_length(params.data) + 1, ""});
    case ProcessAction::kClose: {
      auto s = reg.snapshot(id);
      return stdin_done(reg.close_stdin(id),
                        {std::nullopt, s && s->pty ? "EOF sent" : "stdin closed"});
    }
    default:
      break;
  }
  auto s = reg.snapshot(id);
  if (!s) return not_found(params.session_id);
  if (params.action == ProcessAction::kPoll) return ProcessPoll{view_of(*s, ctx)};
  reg.mark_read(id);
  return log_page(view_of(*s, ctx), params);
}

}  // namespace

Result<ProcessOutput> process(const ProcessParams& params, registry::CallContext& ctx) {
  proc::ProcessRegistry& reg = background_jobs::session_jobs(ctx.session);
  if (params.action == ProcessAction::kList) {
    ProcessListing listing;
    for (const ProcessSnapshot& s : reg.list()) listing.processes.push_back(view_of(s, ctx, 200));
    return ProcessOutput{std::move(listing)};
  }
  auto id = reg.resolve(params.session_id);
  if (!id) return not_found(params.session_id);
  return act(*id, params, ctx);
}

const Error* process_failure(const ProcessOutput& output) {
  if (const auto* refused = std::get_if<ProcessRefused>(&output)) return &refused->error;
  if (const auto* wait = std::get_if<ProcessWait>(&output)) {
    return wait->error ? &*wait->error : nullptr;
  }
  const auto* killed = std::get_if<ProcessKill>(&output);
  return killed && killed->error ? &*killed->error : nullptr;
}

}  // namespace hermes::process
