// SPDX-License-Identifier: MIT
// run_foreground: ShellSession run + output pipeline + cwd bookkeeping.
#include "tools/terminal/foreground.h"

#include "backend/command_fence.h"
#include "core/config.h"
#include "core/paths.h"
#include "registry/session.h"
#include "registry/session_backend.h"
#include "registry/tool.h"
#include "tools/terminal/terminal_state.h"

#include <cstdio>

namespace hermes::terminal {
namespace {

bool is_allowed_workdir_char(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  static constexpr std::string_view kExtra = "/\\:_-.~ +@=,";
  return kExtra.find(c) != std::string_view::npos;
}

bool is_local(const backend::Backend& backend) { return backend.name() == "local"; }

std::string session_start_cwd(registry::CallContext& ctx, const backend::Backend& backend) {
  std::string cwd = ctx.session.cwd();
  return cwd.empty() ? backend.default_cwd() : cwd;
}

// A workdir on a remote target: `~` is its home, relative paths join the
// session cwd; folded lexically (symlinks are the target's business).
std::string remote_workdir(const std::string& workdir, registry::CallContext& ctx,
                           const backend::Backend& backend) {
  std::string path = workdir;
  if (path == "~" || path.starts_with("~/")) path = backend.home() + path.substr(1);
  if (!path.starts_with("/")) path = session_start_cwd(ctx, backend) + "/" + path;
  return PathResolver::normalize(path);
}

// Appends the timeout / interrupt notice; its leading newline is dropped
// when there is no output.
void append_notice(std::string& output, const std::string& notice) {
  output += output.empty() ? notice : "\n" + notice;
}

// What the output says when the command SIGKILLed its supervisor.
std::string escape_notice(int left) {
  std::string notice =
      "[The command killed the process that tracks it: what it had started came back to the "
      "server and ";
  if (left == 0) return notice + "was ended]";
  return notice + std::to_string(left) + " process(es) of it could not be ended]";
}

}  // namespace

std::chrono::milliseconds kill_grace(const Config& config) {
  constexpr double kDefault = 3, kMax = 60;
  double seconds = config.get_double("terminal.kill_grace_seconds", kDefault);
  if (!(seconds >= 0 && seconds <= kMax)) seconds = kDefault;
  return std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000));
}

std::optional<char> workdir_disallowed_char(std::string_view workdir) {
  for (char c : workdir) {
    if (!is_allowed_workdir_char(c)) return c;
  }
  return std::nullopt;
}

std::string py_repr_char(char c) {
  switch (c) {
    case '\'':
      return "\"'\"";
    case '\n':
      return "'\\n'";
    case '\t':
      return "'\\t'";
    case '\r':
      return "'\\r'";
    case '\\':
      return "'\\\\'";
    default:
      break;
  }
  auto u = static_cast<unsigned char>(c);
  if (u < 0x20 || u == 0x7F) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "'\\x%02x'", u);
    return buf;
  }
  return std::string("'") + c + "'";
}

Result<std::string> start_directory(const ForegroundRequest& request, registry::CallContext& ctx,
                                    const backend::Backend& backend) {
  if (!request.workdir) return session_start_cwd(ctx, backend);
  if (!is_local(backend)) return remote_workdir(*request.workdir, ctx, backend);
  HERMES_ASSIGN_OR_RETURN(ResolvedPath path,
                          ctx.services.paths.resolve(*request.workdir, ctx.session.cwd()));
  // A missing workdir is left to `cd`, which fails with bash's message (126).
  return path.absolute;
}

std::optional<std::string> cwd_outside_root(const std::string& dir, registry::CallContext& ctx,
                                            const backend::Backend& backend) {
  const std::string& root = ctx.services.paths.root();
  if (root.empty() || !is_local(backend)) return std::nullopt;
  std::string real =
      dir.starts_with("/") ? PathResolver::real_path(PathResolver::normalize(dir)) : dir;
  if (dir.starts_with("/") && is_within(real, root)) return std::nullopt;
  return "'" + real + "' is outside the workspace root '" + root +
         "': the session cwd was reset to the root.";
}

Result<ForegroundResult> run_foreground(const ForegroundRequest& request,
                                        registry::CallContext& ctx) {
  HERMES_ASSIGN_OR_RETURN(std::shared_ptr<backend::Backend> backend,
                          registry::session_backend(ctx));
  HERMES_ASSIGN_OR_RETURN(std::string start, start_directory(request, ctx, *backend));
  ForegroundResult out;
  // The session cwd itself may have become a link out of the root since.
  if (!request.workdir) {
    if ((out.cwd_note = cwd_outside_root(start, ctx, *backend))) {
      start = ctx.services.paths.root();
      ctx.session.set_cwd(start);
      out.cwd = start;
    }
  }
  ShellSession& shell = ctx.session.state<TerminalState>().shell();
  ShellCommand cmd{.command = request.command,
                   .cwd = start,
                   .fall_back_to_ancestor = !request.workdir,
                   .timeout = std::chrono::seconds(request.timeout_seconds),
                   .kill_grace = kill_grace(ctx.services.config),
                   .status = ctx.status};
  HERMES_ASSIGN_OR_RETURN(ShellResult run, shell.run(cmd, backend, ctx.stop));
  out.snapshot_note = shell.take_snapshot_note();
  out.formatted = format_output(run.output, output_options(ctx.services.config, request.command));
  out.output = out.formatted.text;
  out.exit_code = run.exit_code;
  if (run.end == proc::RunEnd::kTimedOut) {
    out.exit_code = 124;
    append_notice(out.output,
                  "[Command timed out after " + std::to_string(request.timeout_seconds) + "s]");
  } else if (run.end == proc::RunEnd::kCancelled) {
    out.exit_code = 130;
    append_notice(out.output, "[Command interrupted]");
  }
  if (run.end != proc::RunEnd::kExited) out.stopped_by = run.forced ? "SIGKILL" : "SIGINT";
  if (run.escaped) append_notice(out.output, escape_notice(run.escapees_left));
  // A workdir is per-command: only runs from the session cwd move it. The
  // marker holds the physical path, so compare against the physical start.
  if (!request.workdir && run.final_cwd && !run.final_cwd->empty()) {
    std::string final_cwd = *run.final_cwd;
    if (auto note = cwd_outside_root(final_cwd, ctx, *backend)) {
      out.cwd_note = std::move(note);
      final_cwd = ctx.services.paths.root();
    }
    ctx.session.set_cwd(final_cwd);
    std::string before = is_local(*backend) ? PathResolver::real_path(start) : start;
    if (final_cwd != before || out.cwd_note) out.cwd = final_cwd;
  }
  out.notice = backend::fence_notice(*backend);
  return out;
}

}  // namespace hermes::terminal
