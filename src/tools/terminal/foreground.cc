// SPDX-License-Identifier: MIT
// run_foreground: ShellSession run + output pipeline + cwd bookkeeping.
#include "tools/terminal/foreground.h"

#include <cstdio>

#include "core/config.h"
#include "core/paths.h"
#include "registry/session.h"
#include "registry/tool.h"
#include "tools/terminal/terminal_state.h"

namespace hermes {
namespace {

bool is_allowed_workdir_char(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  static constexpr std::string_view kExtra = "/\\:_-.~ +@=,";
  return kExtra.find(c) != std::string_view::npos;
}

std::string session_start_cwd(CallContext& ctx) {
  std::string cwd = ctx.session.cwd();
  if (cwd.empty()) cwd = PathResolver::workspace("");
  return nearest_existing_dir(cwd);
}

// Appends the timeout / interrupt notice; its leading newline is dropped
// when there is no output.
void append_notice(std::string& output, const std::string& notice) {
  output += output.empty() ? notice : "\n" + notice;
}

}  // namespace

std::optional<char> workdir_disallowed_char(std::string_view workdir) {
  for (char c : workdir) {
    if (!is_allowed_workdir_char(c)) return c;
  }
  return std::nullopt;
}

std::string py_repr_char(char c) {
  switch (c) {
    case '\'': return "\"'\"";
    case '\n': return "'\\n'";
    case '\t': return "'\\t'";
    case '\r': return "'\\r'";
    case '\\': return "'\\\\'";
    default: break;
  }
  auto u = static_cast<unsigned char>(c);
  if (u < 0x20 || u == 0x7F) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "'\\x%02x'", u);
    return buf;
  }
  return std::string("'") + c + "'";
}

Result<std::string> start_directory(const ForegroundRequest& request, CallContext& ctx) {
  if (!request.workdir) return session_start_cwd(ctx);
  HERMES_ASSIGN_OR_RETURN(ResolvedPath path,
                          ctx.services.paths.resolve(*request.workdir, ctx.session.cwd()));
  // A missing workdir is left to `cd`, which fails with bash's message (126).
  return path.absolute;
}

Result<ForegroundResult> run_foreground(const ForegroundRequest& request, CallContext& ctx) {
  HERMES_ASSIGN_OR_RETURN(std::string start, start_directory(request, ctx));
  ShellSession& shell = ctx.session.state<TerminalState>().shell();
  ShellCommand cmd{.command = request.command,
                   .cwd = start,
                   .timeout = std::chrono::seconds(request.timeout_seconds)};
  HERMES_ASSIGN_OR_RETURN(ShellResult run, shell.run(cmd, ctx.stop));
  ForegroundResult out;
  out.formatted = format_output(run.output, output_options(ctx.services.config, request.command));
  out.output = out.formatted.text;
  out.exit_code = run.exit_code;
  if (run.end == proc::RunEnd::kTimedOut) {
    out.exit_code = 124;
    append_notice(out.output, "[Command timed out after " +
                                  std::to_string(request.timeout_seconds) + "s]");
  } else if (run.end == proc::RunEnd::kCancelled) {
    out.exit_code = 130;
    append_notice(out.output, "[Command interrupted]");
  }
  // A workdir is per-command: only runs from the session cwd move it.
  std::string previous = ctx.session.cwd();
  if (!request.workdir && run.final_cwd && !run.final_cwd->empty()) {
    ctx.session.set_cwd(*run.final_cwd);
    if (*run.final_cwd != PathResolver::real_path(start)) out.cwd = *run.final_cwd;
  } else if (!request.workdir && start != previous && !previous.empty()) {
    // The recorded cwd vanished; the fallback ancestor becomes the cwd.
    ctx.session.set_cwd(start);
    out.cwd = start;
  }
  return out;
}

}  // namespace hermes
