// SPDX-License-Identifier: MIT
// terminal's handler: the checks of docs/terminal.md in order (timeouts,
// the foreground guardrail, the approval gate, the workdir), then the
// command. The work happens in foreground.cc, background.cc and
// tools/approval.
#include "tools/terminal/terminal.h"

#include "backend/command_fence.h"
#include "core/config.h"
#include "registry/client_channel.h"
#include "registry/session.h"
#include "registry/session_backend.h"
#include "tools/approval/approval_gate.h"
#include "tools/terminal/exit_meaning.h"
#include "tools/terminal/guardrails.h"
#include "tools/terminal/terminal_state.h"

#include <string>

namespace hermes::terminal {
namespace {

using approval::GateResult;
using approval::Verdict;

std::string approval_of(const GateResult& gate) {
  return gate.verdict == Verdict::kApproved ? approval::approval_note(gate.description) : "";
}

Result<TerminalOutput> background(const TerminalParams& params, registry::CallContext& ctx,
                                  const GateResult& gate) {
  HERMES_ASSIGN_OR_RETURN(std::shared_ptr<backend::Backend> backend,
                          registry::session_backend(ctx));
  auto cwd = start_directory({.command = params.command, .workdir = params.workdir}, ctx, *backend);
  if (!cwd) {
    return TerminalOutput(
        TerminalBlocked{Error{cwd.error().code, "Blocked: " + cwd.error().message}});
  }
  TerminalStarted out;
  // gh reads the token from stdin, which must be a pipe, not a terminal.
  out.pty_disabled = params.pty && params.command.find("gh auth login") != std::string::npos &&
                     params.command.find("--with-token") != std::string::npos;
  // Mutually exclusive: notify_on_complete wins and the patterns are dropped.
  out.notify_on_complete = params.notify_on_complete;
  out.watch_patterns_ignored = params.notify_on_complete && !params.watch_patterns.empty();
  if (!params.notify_on_complete) out.watch_patterns = params.watch_patterns;
  out.notifications_undeliverable =
      (out.notify_on_complete || !out.watch_patterns.empty()) && !ctx.client.notifies_after_call();
  auto started = start_background({.command = params.command,
                                   .cwd = *cwd,
                                   .pty = params.pty && !out.pty_disabled,
                                   .notify_on_complete = out.notify_on_complete,
                                   .watch_patterns = out.watch_patterns},
                                  ctx);
  if (!started) {
    return Error{started.error().code,
                 "Failed to start background process: " + started.error().message};
  }
  out.job = std::move(*started);
  out.approval = approval_of(gate);
  out.notice = backend::fence_notice(*backend);
  out.snapshot_note = ctx.session.state<TerminalState>().shell().take_snapshot_note();
  return TerminalOutput(std::move(out));
}

// A foreground run that failed: a workdir outside the root is a refusal;
// backend faults (ssh unreachable, container gone) speak for themselves.
Result<TerminalOutput> foreground_failure(const Error& error) {
  if (error.code == ErrorCode::kOutsideRoot) {
    return TerminalOutput(TerminalBlocked{Error::OutsideRoot("Blocked: " + error.message)});
  }
  if (error.code == ErrorCode::kUnavailable || error.code == ErrorCode::kInvalidArgument) {
    return error;
  }
  return Error{error.code, "Failed to execute command: " + error.message};
}

Result<TerminalOutput> foreground(const TerminalParams& params, int64_t timeout,
                                  registry::CallContext& ctx, const GateResult& gate) {
  auto result = run_foreground(
      {.command = params.command, .timeout_seconds = timeout, .workdir = params.workdir}, ctx);
  if (!result) return foreground_failure(result.error());
  TerminalRan out{.run = std::move(*result)};
  out.approval = approval_of(gate);
  if (!out.approval.empty() && out.run.exit_code == 130) {
    out.approval.insert(out.approval.size() - 1, ", then interrupted");
  }
  out.exit_code_meaning = exit_code_meaning(params.command, out.run.exit_code);
  return TerminalOutput(std::move(out));
}

// The timeout the command gets, or why it gets none.
Result<int64_t> effective_timeout(const TerminalParams& params, const Config& config) {
  if (params.timeout < 0) {
    return Error::InvalidArgument("timeout must be a positive integer (got " +
                                  std::to_string(params.timeout) + ")");
  }
  if (params.timeout > 0) return params.timeout;
  return config.get_int("terminal.timeout", 180, "TERMINAL_TIMEOUT");
}

}  // namespace

Result<TerminalOutput> terminal(const TerminalParams& params, registry::CallContext& ctx) {
  const Config& config = ctx.services.config;
  HERMES_ASSIGN_OR_RETURN(int64_t timeout, effective_timeout(params, config));
  int64_t max_fg =
      config.get_int("terminal.max_foreground_timeout", 600, "TERMINAL_MAX_FOREGROUND_TIMEOUT");
  if (!params.background && timeout > max_fg) {
    return TerminalOutput(TerminalTimeoutRefused{Error::InvalidArgument(
        "Foreground timeout " + std::to_string(timeout) + "s exceeds the maximum of " +
        std::to_string(max_fg) +
        "s. Use background=true with notify_on_complete=true for long-running commands.")});
  }
  if (!params.background) {
    if (auto refusal = foreground_guardrail(params.command)) {
      return Error::InvalidArgument(*refusal);
    }
  }
  // The gate reads names the session's snapshot defines (functions,
  // aliases, exports) at their call sites.
  std::string snapshot = ctx.session.state<TerminalState>().shell().snapshot_text();
  GateResult gate =
      approval::check_command(params.command, ctx, {snapshot, params.workdir.value_or("")});
  if (gate.verdict == Verdict::kBlocked) {
    return TerminalOutput(TerminalBlocked{Error::PermissionDenied(gate.message)});
  }
  if (gate.verdict == Verdict::kPending) {
    return TerminalOutput(
        TerminalPending{Error::PermissionDenied(gate.message), params.command, gate.description});
  }
  if (params.workdir) {
    if (auto bad = workdir_disallowed_char(*params.workdir)) {
      return TerminalOutput(TerminalBlocked{Error::InvalidArgument(
          "Blocked: workdir contains disallowed character " + py_repr_char(*bad) +
          ". Use a simple filesystem path without shell metacharacters.")});
    }
  }
  if (params.background) return background(params, ctx, gate);
  return foreground(params, timeout, ctx, gate);
}

const Error* terminal_failure(const TerminalOutput& output) {
  return std::visit(
      [](const auto& outcome) -> const Error* {
        using T = std::decay_t<decltype(outcome)>;
        if constexpr (std::is_same_v<T, TerminalRan> || std::is_same_v<T, TerminalStarted>) {
          return nullptr;
        } else {
          return &outcome.error;
        }
      },
      output);
}

}  // namespace hermes::terminal
