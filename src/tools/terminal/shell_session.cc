// SPDX-License-Identifier: MIT
// ShellSession: snapshot bootstrap, the per-command wrapper script and the
// cwd marker protocol, all as bash run through the session's backend.
#include "tools/terminal/shell_session.h"

#include "backend/run_bash.h"
#include "core/log.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <utility>

namespace hermes::terminal {
namespace {

constexpr std::chrono::seconds kBootstrapTimeout{30};
// A bootstrap slower than this is worth a note in the result: the user's rc
// files do something slow (or wait on a lock another shell left behind).
constexpr std::chrono::seconds kSlowBootstrap{5};
constexpr std::string_view kRcFiles = "~/.bashrc (and ~/.bash_profile or ~/.profile)";
constexpr std::chrono::seconds kCleanupTimeout{5};
constexpr std::string_view kTagVariable = "HERMES_BG_TAG";

// Writes the snapshot body to `staging`, then (unless `target` is empty)
// moves it over `target`: exported variables, functions (`functions` prints
// their definitions), aliases, plus the options every restored shell starts
// with.
std::string dump_script(const std::string& staging, const std::string& target,
                        const std::string& functions) {
  std::string script =
      "umask 077\n{ export -p; " + functions +
      "; alias -p; printf '%s\\n' 'shopt -s expand_aliases' 'set +e' 'set +u'; } > " +
      shell_quote(staging) + " 2>/dev/null";
  if (target.empty()) return script + "\n";
  return script + " && builtin command mv -f -- " + shell_quote(staging) + " " +
         shell_quote(target) + " 2>/dev/null\n";
}

// cd into `dir`; with `fall_back` a vanished directory gives way to its
// nearest existing ancestor, else the script ends with 126 as upstream.
std::string cd_line(const std::string& dir, bool fall_back) {
  if (!fall_back) return "builtin cd -- " + shell_quote(dir) + " || exit 126\n";
  return "__hermes_d=" + shell_quote(dir) +
         "\nuntil builtin cd -- \"${__hermes_d:-/}\" 2>/dev/null; do "
         "[ -z \"$__hermes_d\" ] && break; case $__hermes_d in */*) __hermes_d=${__hermes_d%/*};; "
         "*) __hermes_d=;; esac; done\n"
         "unset __hermes_d\n";
}

// Why a bootstrap run did not complete, or nullopt when it did.
std::optional<std::string> bootstrap_failure(const Result<backend::BashOutcome>& run) {
  if (!run) return run.error().message;
  switch (run->end) {
    case proc::RunEnd::kTimedOut:
      return "timed out after " + std::to_string(kBootstrapTimeout.count()) + " s";
    case proc::RunEnd::kCancelled:
      return std::string("cancelled with its call");
    case proc::RunEnd::kExited:
      break;
  }
  if (run->exit_code == 0) return std::nullopt;
  return "exited with " + std::to_string(run->exit_code);
}

std::string seconds_text(std::chrono::steady_clock::duration d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", std::chrono::duration<double>(d).count());
  return buf;
}

// Feeds a call's status the command's output up to the cwd marker line,
// which the wrapper prints last and no reader should see. A chunk's tail
// that may be the marker's beginning waits for the next chunk.
class StatusFeed {
 public:
  StatusFeed(registry::CallStatus* status, const std::string& marker)
      : status_(status), marker_("\n" + marker) {}

  void operator()(std::string_view bytes) {
    if (!status_ || ended_) return;
    held_.append(bytes);
    size_t at = held_.find(marker_);
    ended_ = at != std::string::npos;
    size_t keep = ended_ ? held_.size() - at : marker_prefix_at_end();
    status_->add_output(std::string_view(held_).substr(0, held_.size() - keep));
    held_.erase(0, held_.size() - keep);
  }

 private:
  size_t marker_prefix_at_end() const {
    for (size_t k = std::min(held_.size(), marker_.size() - 1); k > 0; --k) {
      if (std::string_view(held_).ends_with(std::string_view(marker_).substr(0, k))) return k;
    }
    return 0;
  }

  registry::CallStatus* status_;
  std::string marker_;  // with the newline the wrapper prints before it
  std::string held_;
  bool ended_ = false;
};

}  // namespace

std::string kill_tagged_script(const std::string& tag) {
  return "__want=" + shell_quote(std::string(kTagVariable) + "=" + tag) +
         "\nfor __p in /proc/[0-9]*; do\n"
         "  while IFS= read -r -d '' __v; do\n"
         "    if [ \"$__v\" = \"$__want\" ]; then kill -TERM \"${__p#/proc/}\" 2>/dev/null; break; "
         "fi\n"
         "  done < \"$__p/environ\" 2>/dev/null\n"
         "done\n";
}

std::optional<std::string> take_cwd_marker(proc::OutputCapture& output, const std::string& marker) {
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

ShellSession::ShellSession() : sid_(random_hex(6)), marker_("__HERMES_CWD_" + sid_ + "__") {}

ShellSession::~ShellSession() {
  std::shared_ptr<backend::Backend> backend;
  std::string snapshot;
  {
    std::lock_guard lock(mu_);
    backend = backend_;
    snapshot = snapshot_;
  }
  if (!backend) return;
  // Also removes staging files a killed command left behind.
  std::string script = "rm -f -- " + shell_quote(snapshot) + " " + shell_quote(snapshot) + ".*";
  auto removed = backend::run_bash(*backend, {.script = script, .timeout = kCleanupTimeout}, {},
                                   [](std::string_view) {});
  if (!removed)
    log::warn("terminal: could not remove the shell snapshot: " + removed.error().message);
}

void ShellSession::bind(const std::shared_ptr<backend::Backend>& backend) {
  std::lock_guard lock(mu_);
  if (backend_) return;
  backend_ = backend;
  snapshot_ = backend->temp_dir() + "/hermes-snap-" + sid_ + ".sh";
}

std::string ShellSession::snapshot_text() const {
  std::string path;
  {
    std::lock_guard lock(mu_);
    if (!backend_ || backend_->name() != "local" || !have_snapshot_) return "";
    path = snapshot_;
  }
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return "";
  struct stat st {};
  std::string text;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
      static_cast<size_t>(st.st_size) <= kMaxSnapshotRead) {
    text.resize(static_cast<size_t>(st.st_size));
    ssize_t n = ::read(fd, text.data(), text.size());
    text.resize(n > 0 ? static_cast<size_t>(n) : 0);
  }
  ::close(fd);
  return text;
}

std::string ShellSession::snapshot_path() const {
  std::lock_guard lock(mu_);
  return snapshot_;
}

std::optional<std::string> ShellSession::take_snapshot_note() {
  std::lock_guard lock(mu_);
  return std::exchange(snapshot_note_, std::nullopt);
}

void ShellSession::ensure_snapshot(backend::Backend& backend, std::stop_token stop,
                                   std::chrono::milliseconds kill_grace) {
  std::lock_guard bootstrap(bootstrap_mu_);
  std::string snapshot;
  {
    std::lock_guard lock(mu_);
    if (bootstrapped_) return;
    bootstrapped_ = true;
    snapshot = snapshot_;
  }
  std::string script =
      "[ -r ~/.bashrc ] && . ~/.bashrc >/dev/null 2>&1 </dev/null\n"
      "unset -v $(compgen -v HERMES_SESSION_) $(compgen -v HERMES_RPC_) AI_AGENT 2>/dev/null\n" +
      dump_script(snapshot + ".boot", snapshot,
                  "for __f in $(compgen -A function); do case $__f in _|_[!_]*) ;; "
                  "*) declare -f \"$__f\";; esac; done");
  const auto started = std::chrono::steady_clock::now();
  // SIGTERM and a grace, never SIGKILL at once: an rc file cut short in
  // `pyenv rehash` leaves its lock file, and every later shell waits on it.
  auto run = backend::run_bash(
      backend,
      {.script = script, .login = true, .timeout = kBootstrapTimeout, .kill_grace = kill_grace},
      stop, [](std::string_view) {});
  const auto took = std::chrono::steady_clock::now() - started;
  std::optional<std::string> failure = bootstrap_failure(run);
  std::lock_guard lock(mu_);
  if (failure) {
    snapshot_note_ = "Shell snapshot failed (" + *failure + ") in a login shell sourcing " +
                     std::string(kRcFiles) +
                     "; every command now runs in a login shell, which sources them again.";
    log::warn("terminal: " + *snapshot_note_);
    return;
  }
  have_snapshot_ = true;
  if (took >= kSlowBootstrap) {
    snapshot_note_ = "Shell snapshot took " + seconds_text(took) + ": a login shell sourcing " +
                     std::string(kRcFiles) + " is slow; later commands reuse the snapshot.";
  }
}

std::string ShellSession::wrapper(const ShellCommand& cmd, const std::string& next,
                                  bool on_host) const {
  std::string snapshot = snapshot_path();
  return "source " + shell_quote(snapshot) +
         " >/dev/null 2>&1\n"
         "export AI_AGENT=\"${AI_AGENT:-1}\" HERMES_AGENT=\"${HERMES_AGENT:-1}\" "
         "GIT_PAGER=\"${GIT_PAGER:-cat}\" PAGER=\"${PAGER:-cat}\"\n" +
         cd_line(cmd.cwd, cmd.fall_back_to_ancestor) + "eval " + shell_quote(cmd.command) +
         "\n"
         "__hermes_rc=$?\n" +
         // `declare -f` without a filter: forking to filter would double
         // the cost of a call, and the bootstrap already dropped helpers.
         // On this host the server renames the staging file itself, which
         // saves forking `mv` (a quarter of a `true` call).
         dump_script(next, on_host ? "" : snapshot, "declare -f") +
         // `cd -P .` resolves symlinks without forking for `pwd -P`.
         "builtin cd -P . 2>/dev/null\n"
         "printf '\\n%s%s%s\\n' " +
         shell_quote(marker_) + " \"$PWD\" " + shell_quote(marker_) + "\nexit $__hermes_rc\n";
}

Result<ShellResult> ShellSession::run(const ShellCommand& cmd,
                                      const std::shared_ptr<backend::Backend>& backend,
                                      std::stop_token stop) {
  bind(backend);
  ensure_snapshot(*backend, stop, cmd.kill_grace);
  bool login;
  {
    std::lock_guard lock(mu_);
    login = !have_snapshot_;
  }
  std::string next = snapshot_path() + ".next." + std::to_string(counter_++);
  bool on_host = backend->name() == "local";
  ShellResult result;
  HERMES_ASSIGN_OR_RETURN(
      backend::BashOutcome outcome,
      backend::run_bash(
          *backend,
          {.script = wrapper(cmd, next, on_host),
           .login = login,
           .timeout = std::chrono::duration_cast<std::chrono::milliseconds>(cmd.timeout),
           .stop_signal = SIGINT,
           .kill_grace = cmd.kill_grace,
           .whole_tree = backend->runs_on_this_host()},
          stop, [&result, feed = StatusFeed(cmd.status, marker_)](std::string_view bytes) mutable {
            result.output.append(bytes);
            feed(bytes);
          }));
  result.end = outcome.end;
  result.exit_code = outcome.exit_code;
  result.forced = outcome.forced;
  result.escaped = outcome.escaped;
  result.escapees_left = outcome.escapees_left;
  // A command that trapped the interrupt may still reach the marker: it is
  // never output, but a run cut short changes no state.
  std::optional<std::string> final_cwd = take_cwd_marker(result.output, marker_);
  if (outcome.end == proc::RunEnd::kExited) result.final_cwd = std::move(final_cwd);
  // Only a command that reached the marker wrote a complete snapshot.
  bool complete = result.final_cwd.has_value();
  if (on_host) {
    complete = complete && std::rename(next.c_str(), snapshot_path().c_str()) == 0;
    if (!complete) ::unlink(next.c_str());
  }
  if (complete) {
    std::lock_guard lock(mu_);
    have_snapshot_ = true;
  }
  return result;
}

std::vector<std::string> ShellSession::background_argv(
    const std::string& command, const std::string& cwd,
    const std::shared_ptr<backend::Backend>& backend, std::chrono::milliseconds kill_grace,
    const std::string& tag) {
  bind(backend);
  ensure_snapshot(*backend, {}, kill_grace);
  std::string script =
      "source " + shell_quote(snapshot_path()) +
      " >/dev/null 2>&1\n"
      "export PYTHONUNBUFFERED=1 PAGER=cat GIT_PAGER=cat\n" +
      (tag.empty() ? "" : "export " + std::string(kTagVariable) + "=" + shell_quote(tag) + "\n") +
      cd_line(cwd, false) + "eval " + shell_quote(command) + "\n";
  return backend->bash_argv(script, false);
}

}  // namespace hermes::terminal
