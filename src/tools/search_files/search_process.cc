// SPDX-License-Identifier: MIT
// The record layer behind search_process.h over the shared process runner:
// proc::spawn + run_bounded here, run_bash on a backend. A sink stop is a
// cancellation of the run that the outcome reports as kSinkDone.
#include "tools/search_files/search_process.h"

#include "backend/backend.h"
#include "backend/run_bash.h"
#include "core/strings.h"
#include "fs/beneath.h"
#include "proc/run.h"
#include "proc/spawn.h"
#include "proc/stderr_capture.h"
#include "proc/write_fence.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <thread>

namespace hermes::search {
namespace {

// Splits a byte stream into records for the sink, bounding each record.
class RecordSplitter {
 public:
  RecordSplitter(const SpawnSpec& spec, const RecordSink& sink)
      : delimiter_(spec.delimiter), max_(spec.max_record_bytes), sink_(sink) {}

  // Feeds a chunk; false once the sink asked to stop.
  bool feed(std::string_view chunk) {
    while (!chunk.empty()) {
      const void* hit = std::memchr(chunk.data(), delimiter_, chunk.size());
      if (hit == nullptr) {
        append(chunk);
        return true;
      }
      size_t n = static_cast<const char*>(hit) - chunk.data();
      if (!emit(chunk.substr(0, n))) return false;
      chunk.remove_prefix(n + 1);
    }
    return true;
  }
  // Emits an unterminated final record, if any.
  bool finish() { return partial_.empty() || emit({}); }

 private:
  void append(std::string_view piece) {
    if (partial_.size() < max_) partial_.append(piece.substr(0, max_ - partial_.size()));
  }
  bool emit(std::string_view tail) {
    if (partial_.empty()) return sink_(tail.substr(0, max_));
    append(tail);
    bool more = sink_(partial_);
    partial_.clear();
    return more;
  }

  char delimiter_;
  size_t max_;
  const RecordSink& sink_;
  std::string partial_;
};

// What a launcher reports; the record layer adds the sink stop.
struct Launched {
  proc::RunEnd end = proc::RunEnd::kExited;
  int code = 0;  // proc convention: minus the signal number
  std::string stderr_text;
};

using Launch = std::function<Result<Launched>(std::stop_token, const proc::OutputCallback&)>;

std::string basename_of(const std::string& path) { return path.substr(path.find_last_of('/') + 1); }

// At least a millisecond: run_bounded reads zero as "no deadline", and a
// caller whose overall budget is spent still gets a (timed-out) run.
std::chrono::milliseconds budget(const SpawnSpec& spec) {
  return std::max(spec.timeout, std::chrono::milliseconds(1));
}

// The ignore files rg reads in the directories above the root (a root
// inside a repository obeys the repository's .gitignore).
constexpr const char* kAncestorIgnoreFiles[] = {".gitignore", ".ignore", ".rgignore",
                                                ".git/info/exclude"};

// What an engine may read besides the root: its program, the system
// directories its loader, libraries and locales come from, /dev/null (its
// stdin, opened once the child is fenced) and the ancestors' ignore files.
// Not the user's git config (it can hold tokens).
proc::ReadOnlyPaths engine_paths(const SpawnSpec& spec) {
  proc::ReadOnlyPaths paths{.readable = {spec.fence_root},
                            .excluded = spec.fence_excluded,
                            .runnable = {spec.argv[0], "/usr", "/bin", "/lib", "/lib64",
                                         "/etc/ld.so.cache", "/dev/null"}};
  std::string dir = spec.fence_root;
  while (dir.size() > 1) {
    dir.resize(std::max<size_t>(dir.rfind('/'), 1));
    for (const char* name : kAncestorIgnoreFiles) {
      paths.readable_files.push_back((dir == "/" ? dir : dir + "/") + name);
    }
  }
  return paths;
}

// The search roots that are files, each opened beneath the root without
// following a link: a link on the way fails here, and a file swapped for a
// link (before or after) is bound as the link itself, so reading through it
// reaches a file the engine may not read.
Result<std::vector<proc::OpenedPath>> open_fence_files(const SpawnSpec& spec) {
  HERMES_ASSIGN_OR_RETURN(fs::Beneath root, fs::Beneath::open_root(spec.fence_root));
  std::vector<proc::OpenedPath> files;
  for (const std::string& file : spec.fence_files) {
    HERMES_ASSIGN_OR_RETURN(proc::UniqueFd fd, root.open(file, O_PATH));
    files.push_back({file, std::move(fd)});
  }
  return files;
}

// The engine's read-only fence; nullopt when there is no root or the
// kernel has no Landlock (the server's own checks then stand alone).
Result<std::optional<proc::WriteFence>> engine_fence(const SpawnSpec& spec) {
  if (spec.fence_root.empty()) return std::optional<proc::WriteFence>();
  proc::ReadOnlyPaths paths = engine_paths(spec);
  if (!spec.fence_files.empty()) {
    auto files = open_fence_files(spec);
    if (!files) {
      return Error::Io("cannot fence the search engine to its files: " + files.error().message);
    }
    paths.readable.clear();
    paths.readable_opened = std::move(*files);
  }
  auto fence = proc::WriteFence::read_only(paths);
  if (fence) return std::optional<proc::WriteFence>(std::move(*fence));
  if (fence.error().code == ErrorCode::kUnavailable) return std::optional<proc::WriteFence>();
  return Error::Io("cannot fence the search engine to the workspace root: " +
                   fence.error().message);
}

// `env`: the child's environment (nullopt: the server's).
Result<Launched> launch_local(const SpawnSpec& spec, std::stop_token stop,
                              const proc::OutputCallback& on_output,
                              std::optional<std::vector<std::string>> env = std::nullopt) {
  // Held in its Result rather than moved out: g++ -O3 misreads the moved-from
  // optional's fd as uninitialised.
  auto fence = engine_fence(spec);
  if (!fence) return fence.error();
  proc::StderrCapture stderr_capture(spec.max_stderr_bytes);
  if (!stderr_capture.ok()) return Error::FromErrno(errno, "pipe2");
  // Its own process group, not session: see SpawnOptions::new_session.
  proc::SpawnOptions options{.argv = spec.argv,
                             .program = spec.argv[0],
                             .env = std::move(env),
                             .cwd = spec.cwd,
                             .stderr_fd = stderr_capture.write_fd(),
                             .new_session = false,
                             .engine_fence_fd = *fence ? (*fence)->fd() : -1};
  options.argv[0] = basename_of(spec.argv[0]);
  auto child = proc::spawn(options);
  stderr_capture.start();
  if (!child) return child.error();
  // Engines need no grace to clean up: straight to SIGKILL when cut short.
  proc::RunOutcome r = proc::run_bounded(
      *child, {.timeout = budget(spec), .kill_grace = std::chrono::milliseconds(0)}, stop,
      on_output);
  return Launched{r.end, r.status.code, stderr_capture.finish()};
}

Result<RunOutcome> drive(const SpawnSpec& spec, const RecordSink& sink, const Launch& launch) {
  if (spec.argv.empty()) return Error::InvalidArgument("empty command");
  std::stop_source halt;
  std::stop_callback forward(spec.stop, [&halt] { halt.request_stop(); });
  RecordSplitter splitter(spec, sink);
  bool sink_done = false;
  auto on_output = [&](std::string_view bytes) {
    if (!sink_done && !splitter.feed(bytes)) {
      sink_done = true;
      halt.request_stop();
    }
  };
  HERMES_ASSIGN_OR_RETURN(Launched launched, launch(halt.get_token(), on_output));
  bool exited = launched.end == proc::RunEnd::kExited;
  if (exited && !sink_done && !splitter.finish()) sink_done = true;
  RunOutcome outcome;
  outcome.stderr_text = std::move(launched.stderr_text);
  if (outcome.stderr_text.size() > spec.max_stderr_bytes)
    outcome.stderr_text.resize(spec.max_stderr_bytes);
  outcome.exit_code = launched.code < 0 ? 128 - launched.code : launched.code;
  outcome.end = sink_done                                 ? RunEnd::kSinkDone
                : exited                                  ? RunEnd::kExited
                : launched.end == proc::RunEnd::kTimedOut ? RunEnd::kTimedOut
                                                          : RunEnd::kCancelled;
  return outcome;
}

// Words cut at a NUL as execve would cut them locally, so both paths see
// the same argument.
std::string quoted_word(const std::string& word) {
  return shell_quote(std::string_view(word.c_str()));
}

}  // namespace

Result<RunOutcome> run_records(const SpawnSpec& spec, const RecordSink& sink) {
  return drive(spec, sink, [&](std::stop_token stop, const proc::OutputCallback& on_output) {
    return launch_local(spec, std::move(stop), on_output);
  });
}

std::string remote_script(const SpawnSpec& spec) {
  std::string script;
  if (!spec.cwd.empty()) script = "cd -- " + quoted_word(spec.cwd) + " && ";
  script += "exec -a " + quoted_word(basename_of(spec.argv[0]));
  for (const std::string& word : spec.argv) script += " " + quoted_word(word);
  return script;
}

Result<RunOutcome> run_records_on(backend::Backend& backend, const SpawnSpec& spec,
                                  const RecordSink& sink) {
  // The local backend under a root (the one with a command fence) runs the
  // engine here, read-fenced as run_records does, with the environment its
  // shells get: through its shell the engine would be write-fenced only.
  if (!spec.fence_root.empty() && backend.command_fence() != nullptr) {
    return drive(spec, sink, [&](std::stop_token stop, const proc::OutputCallback& on_output) {
      return launch_local(spec, std::move(stop), on_output, backend.launch_env());
    });
  }
  return drive(
      spec, sink,
      [&](std::stop_token stop, const proc::OutputCallback& on_output) -> Result<Launched> {
        backend::BashRun run{.script = remote_script(spec),
                             .timeout = budget(spec),
                             .separate_stderr = true,
                             .new_session = false};
        HERMES_ASSIGN_OR_RETURN(backend::BashOutcome done,
                                backend::run_bash(backend, run, std::move(stop), on_output));
        return Launched{done.end, done.exit_code, std::move(done.stderr_text)};
      });
}

std::string find_executable(std::string_view name) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return {};
  for (const std::string& dir : split(path, ':')) {
    if (dir.empty() || dir[0] != '/') continue;  // relative PATH entries are unsafe
    std::string candidate = dir + "/" + std::string(name);
    struct stat st;
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
        ::access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
  }
  return {};
}

}  // namespace hermes::search
