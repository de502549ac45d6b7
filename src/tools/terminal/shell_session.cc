// SPDX-License-Identifier: MIT
// ShellSession: snapshot bootstrap, the per-command wrapper script and the
// cwd marker protocol.
#include "tools/terminal/shell_session.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <random>

#include "core/log.h"
#include "proc/spawn.h"

namespace hermes {
namespace {

constexpr std::chrono::seconds kBootstrapTimeout{30};

std::string random_hex(size_t n) {
  std::random_device rd;
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < n; ++i) out += kHex[rd() & 15];
  return out;
}

std::string temp_dir() {
  const char* t = std::getenv("TMPDIR");
  return t && *t ? t : "/tmp";
}

// The snapshot body: exported variables, functions and aliases, plus the
// options every restored shell starts with. `functions` is the bash
// expression that prints the function definitions.
std::string dump_script(const std::string& target, const std::string& functions) {
  return "umask 077\n{ export -p; " + functions +
         "; alias -p; printf '%s\\n' 'shopt -s expand_aliases' 'set +e' 'set +u'; } > " +
         shell_quote(target) + " 2>/dev/null\n";
}

bool is_dir(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

}  // namespace

std::string nearest_existing_dir(const std::string& path) {
  std::string p = path.empty() ? "/" : path;
  while (!is_dir(p)) {
    size_t slash = p.find_last_of('/');
    if (slash == std::string::npos || slash == 0) return "/";
    p.resize(slash);
  }
  return p;
}

std::optional<std::string> take_cwd_marker(proc::OutputCapture& output,
                                           const std::string& marker) {
  std::string_view tail = output.tail();
  size_t close = tail.rfind(marker);
  if (close == std::string_view::npos || close < marker.size()) return std::nullopt;
  size_t open = tail.rfind(marker, close - marker.size());
  if (open == std::string_view::npos) return std::nullopt;
  std::string cwd(tail.substr(open + marker.size(), close - open - marker.size()));
  size_t start = open > 0 && tail[open - 1] == '\n' ? open - 1 : open;
  size_t end = tail.find('\n', close + marker.size());
  end = end == std::string_view::npos ? tail.size() : end + 1;
  // A grandchild may have printed after the marker: keep that text.
  std::string after(tail.substr(end));
  output.drop_suffix(tail.size() - start);
  if (!after.empty()) output.append(after);
  return cwd;
}

ShellSession::ShellSession() {
  std::string sid = random_hex(12);
  snapshot_ = temp_dir() + "/hermes-snap-" + sid + ".sh";
  marker_ = "__HERMES_CWD_" + sid + "__";
}

ShellSession::~ShellSession() { ::unlink(snapshot_.c_str()); }

void ShellSession::ensure_snapshot(std::stop_token stop) {
  std::lock_guard lock(bootstrap_mu_);
  if (bootstrapped_) return;
  bootstrapped_ = true;
  std::string tmp = snapshot_ + ".boot";
  std::string script =
      "[ -r ~/.bashrc ] && . ~/.bashrc >/dev/null 2>&1 </dev/null\n"
      "unset -v $(compgen -v HERMES_SESSION_) $(compgen -v HERMES_RPC_) AI_AGENT 2>/dev/null\n" +
      dump_script(tmp,
                  "for __f in $(compgen -A function); do case $__f in _|_[!_]*) ;; "
                  "*) declare -f \"$__f\";; esac; done");
  auto child = proc::spawn({.argv = {"bash", "-l", "-c", script}, .cwd = "/"});
  if (!child) {
    log::warn("terminal: snapshot bootstrap failed: " + child.error().message);
    return;
  }
  proc::RunOutcome r = proc::run_bounded(
      *child, {.timeout = kBootstrapTimeout}, stop, [](std::string_view) {});
  if (r.end == proc::RunEnd::kExited && std::rename(tmp.c_str(), snapshot_.c_str()) == 0) {
    have_snapshot_ = true;
    return;
  }
  ::unlink(tmp.c_str());
  log::warn("terminal: snapshot bootstrap did not complete; using login shells");
}

std::string ShellSession::wrapper(const ShellCommand& cmd, const std::string& next) const {
  return "source " + shell_quote(snapshot_) + " >/dev/null 2>&1\n"
         "export AI_AGENT=\"${AI_AGENT:-1}\" HERMES_AGENT=\"${HERMES_AGENT:-1}\" "
         "GIT_PAGER=\"${GIT_PAGER:-cat}\" PAGER=\"${PAGER:-cat}\"\n"
         "builtin cd -- " + shell_quote(cmd.cwd) + " || exit 126\n"
         "eval " + shell_quote(cmd.command) + "\n"
         "__hermes_rc=$?\n" +
         // `declare -f` without a filter: forking to filter would double
         // the cost of a call, and the bootstrap already dropped helpers.
         dump_script(next, "declare -f") +
         // `cd -P .` resolves symlinks without forking for `pwd -P`.
         "builtin cd -P . 2>/dev/null\n"
         "printf '\\n%s%s%s\\n' " + shell_quote(marker_) + " \"$PWD\" " + shell_quote(marker_) +
         "\nexit $__hermes_rc\n";
}

Result<ShellResult> ShellSession::run(const ShellCommand& cmd, std::stop_token stop) {
  ensure_snapshot(stop);
  bool login;
  {
    std::lock_guard lock(bootstrap_mu_);
    login = !have_snapshot_;
  }
  std::string next = snapshot_ + ".next." + std::to_string(counter_++);
  std::vector<std::string> argv = {"bash", "-c", wrapper(cmd, next)};
  if (login) argv.insert(argv.begin() + 1, "-l");
  HERMES_ASSIGN_OR_RETURN(proc::ChildProcess child, proc::spawn({.argv = argv, .cwd = "/"}));
  ShellResult result;
  proc::RunOutcome outcome = proc::run_bounded(
      child, {.timeout = cmd.timeout}, stop,
      [&result](std::string_view bytes) { result.output.append(bytes); });
  result.end = outcome.end;
  result.exit_code = outcome.status.code;
  if (outcome.end == proc::RunEnd::kExited) {
    result.final_cwd = take_cwd_marker(result.output, marker_);
  }
  // Only a command that reached the marker wrote a complete snapshot.
  if (result.final_cwd && std::rename(next.c_str(), snapshot_.c_str()) == 0) {
    std::lock_guard lock(bootstrap_mu_);
    have_snapshot_ = true;
  } else {
    ::unlink(next.c_str());
  }
  return result;
}

std::vector<std::string> ShellSession::background_argv(const std::string& command,
                                                       const std::string& cwd) {
  ensure_snapshot({});
  std::string script = "source " + shell_quote(snapshot_) + " >/dev/null 2>&1\n"
                       "export PYTHONUNBUFFERED=1 PAGER=cat GIT_PAGER=cat\n"
                       "builtin cd -- " + shell_quote(cwd) + " || exit 126\n"
                       "eval " + shell_quote(command) + "\n";
  return {"bash", "-c", script};
}

}  // namespace hermes
