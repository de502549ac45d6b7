// SPDX-License-Identifier: MIT
// The portable search host: every question about the target is one short
// bash script run by the backend (docs/ARCHITECTURE.md), with each path quoted.
// The scripts use bash builtins where they can, plus `realpath` and `stat`
// from coreutils, so a target needs nothing the engines do not.
#include "backend/backend.h"
#include "backend/run_bash.h"
#include "core/paths.h"
#include "core/strings.h"
#include "tools/search_files/search_host.h"
#include "tools/search_files/search_state.h"

#include <algorithm>
#include <charconv>
#include <mutex>

namespace hermes::search {
namespace {

constexpr std::chrono::milliseconds kQueryTimeout{30'000};

// `d` directory, `f` regular file, `p` FIFO, `s` socket, `c`/`b` devices,
// `o` anything else, `m` missing; for "$1" with links followed.
constexpr const char* kKindFunction =
    "kind() { if [[ -d $1 ]]; then k=d; elif [[ -f $1 ]]; then k=f; elif [[ -p $1 ]]; then k=p; "
    "elif [[ -S $1 ]]; then k=s; elif [[ -c $1 ]]; then k=c; elif [[ -b $1 ]]; then k=b; "
    "elif [[ -e $1 ]]; then k=o; else k=m; fi; }; ";

PathKind kind_of(char letter) {
  switch (letter) {
    case 'd':
      return PathKind::kDirectory;
    case 'f':
      return PathKind::kRegular;
    case 'p':
      return PathKind::kFifo;
    case 's':
      return PathKind::kSocket;
    case 'c':
      return PathKind::kCharDevice;
    case 'b':
      return PathKind::kBlockDevice;
    case 'o':
      return PathKind::kOther;
    default:
      return PathKind::kMissing;
  }
}

// `secs.nanos` as printed by `stat --printf %.9Y`.
int64_t parse_mtime(std::string_view text) {
  int64_t secs = 0, nanos = 0;
  size_t dot = text.find('.');
  std::string_view whole = text.substr(0, dot);
  if (std::from_chars(whole.data(), whole.data() + whole.size(), secs).ec != std::errc()) return 0;
  if (dot != std::string_view::npos) {
    std::string frac(text.substr(dot + 1, 9));
    frac.resize(9, '0');
    std::from_chars(frac.data(), frac.data() + frac.size(), nanos);
  }
  return secs * 1'000'000'000 + nanos;
}

class BackendHost final : public SearchHost {
 public:
  BackendHost(std::shared_ptr<backend::Backend> backend, std::stop_token stop,
              SearchSessionState* state)
      : backend_(std::move(backend)), stop_(std::move(stop)), state_(state) {}

  Engines engines() override {
    if (state_ == nullptr) return look_up_engines();
    return state_->engines_for(backend_, [this] { return look_up_engines(); });
  }

  Result<RunOutcome> run(const SpawnSpec& spec, const RecordSink& sink) override {
    return run_records_on(*backend_, spec, sink);
  }

  std::string home() override { return backend_->home(); }

  // The backend's default cwd is already inside the root where one applies
  // (LocalBackend::default_cwd); a remote host has no root of ours.
  std::string workspace(const std::string& session_cwd, const std::string&) override {
    return session_cwd.empty() ? backend_->default_cwd() : session_cwd;
  }

  std::string real_path(const std::string& absolute) override {
    std::string out = query("realpath -m -- " + shell_quote(absolute));
    if (out.ends_with('\n')) out.pop_back();
    return out.starts_with('/') ? out : absolute;
  }

  PathKind kind(const std::string& path) override {
    std::string out =
        query(std::string(kKindFunction) + "kind " + shell_quote(path) + "; printf %s \"$k\"");
    return kind_of(out.empty() ? 'm' : out[0]);
  }

  Located locate(const std::string& absolute) override {
    // `x` guards trailing newlines of the name from `$(…)`.
    std::string out =
        query(std::string(kKindFunction) + "r=$(realpath -m -- " + shell_quote(absolute) +
              " && printf x) || exit 0; r=${r%$'\\nx'}; kind \"$r\"; "
              "printf '%s%s' \"$k\" \"$r\"");
    if (out.size() < 2 || out[1] != '/') return Located{absolute, kind(absolute)};
    return Located{out.substr(1), kind_of(out[0])};
  }

  std::vector<DirEntry> list_dir(const std::string& dir) override {
    std::string out = query("cd -- " + shell_quote(dir) +
                            " 2>/dev/null || exit 0; shopt -s nullglob dotglob; for f in *; do "
                            "if [[ -L $f ]]; then k=o; elif [[ -d $f ]]; then k=d; "
                            "elif [[ -f $f ]]; then k=f; else k=o; fi; "
                            "printf '%s%s\\0' \"$k\" \"$f\"; done");
    std::vector<DirEntry> entries;
    for (std::string_view rest = out; !rest.empty();) {
      size_t end = rest.find('\0');
      std::string_view record = rest.substr(0, end);
      if (record.size() > 1) entries.push_back({std::string(record.substr(1)), kind_of(record[0])});
      rest.remove_prefix(end == std::string_view::npos ? rest.size() : end + 1);
    }
    std::sort(entries.begin(), entries.end(),
              [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; });
    return entries;
  }

  std::vector<int64_t> mtimes(const std::vector<std::string>& paths,
                              const std::string& cwd) override {
    if (paths.empty()) return {};
    std::string list;
    for (const std::string& path : paths) list.append(path).push_back('\0');
    std::string out =
        query("cd -- " + shell_quote(cwd) + " && xargs -0r stat -L --printf '%.9Y %n\\0' --",
              std::move(list));
    // `stat` skips (and reports on stderr) a file that vanished since the
    // listing, so records are matched to paths in order by name.
    std::vector<int64_t> times(paths.size(), 0);
    size_t next = 0;
    for (std::string_view rest = out; !rest.empty() && next < paths.size();) {
      size_t end = rest.find('\0');
      std::string_view record = rest.substr(0, end);
      rest.remove_prefix(end == std::string_view::npos ? rest.size() : end + 1);
      size_t space = record.find(' ');
      if (space == std::string_view::npos) continue;
      std::string_view name = record.substr(space + 1);
      while (next < paths.size() && paths[next] != name) ++next;
      if (next < paths.size()) times[next++] = parse_mtime(record.substr(0, space));
    }
    return times;
  }

  std::optional<std::string> failure() override {
    std::lock_guard lock(mu_);
    return failure_;
  }

 private:
  // The output of `script`; empty after a failure, which failure() keeps.
  std::string query(const std::string& script, std::optional<std::string> input = std::nullopt) {
    backend::BashRun run{.script = script,
                         .stdin_data = std::move(input),
                         .timeout = kQueryTimeout,
                         .separate_stderr = true,
                         .new_session = false};
    auto done = backend::run_bash_captured(*backend_, run, stop_);
    if (done && done->end == proc::RunEnd::kExited) return std::move(done->output);
    std::lock_guard lock(mu_);
    if (!failure_) {
      failure_ = !done ? done.error().message
                 : done->end == proc::RunEnd::kCancelled
                     ? std::string("Search interrupted")
                     : backend_->name() + " backend: a file query timed out";
    }
    return {};
  }

  Engines look_up_engines() {
    std::string out = query(
        "for t in rg grep find; do printf '%s=%s\\n' \"$t\" \"$(command -v -- \"$t\")\"; done");
    Engines engines;
    for (const std::string& line : split(out, '\n')) {
      size_t eq = line.find('=');
      std::string name = line.substr(0, eq), path = line.substr(eq + 1);
      if (eq == std::string::npos || !path.starts_with('/')) continue;  // aliases are no engines
      if (name == "rg") engines.rg = path;
      if (name == "grep") engines.grep = path;
      if (name == "find") engines.find = path;
    }
    return engines;
  }

  std::shared_ptr<backend::Backend> backend_;
  std::stop_token stop_;
  SearchSessionState* state_;
  std::mutex mu_;
  std::optional<std::string> failure_;  // mu_
};

}  // namespace

std::unique_ptr<SearchHost> backend_host(std::shared_ptr<backend::Backend> backend,
                                         std::stop_token stop, SearchSessionState* state) {
  return std::make_unique<BackendHost>(std::move(backend), std::move(stop), state);
}

}  // namespace hermes::search
