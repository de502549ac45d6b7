// SPDX-License-Identifier: MIT
// Running one engine command (rg, grep, find) with stdout streamed as records
// to a sink that may stop it early, stderr kept apart with a bound, a
// deadline and cancellation. Locally through proc::spawn, or on a backend's
// target through the same bash launcher the terminal uses.
#pragma once

#include "core/result.h"

#include <chrono>
#include <functional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

namespace hermes::backend {
class Backend;
}  // namespace hermes::backend

namespace hermes::search {

struct SpawnSpec {
  // argv[0] is an absolute executable path (on the target); the child gets
  // its basename.
  std::vector<std::string> argv;
  std::string cwd;  // empty: inherit (local) or the login folder
  std::chrono::milliseconds timeout{60'000};
  char delimiter = '\n';           // record separator on stdout
  size_t max_record_bytes = 8192;  // longer records are cut (rest discarded)
  size_t max_stderr_bytes = 16384;
  std::stop_token stop;
  // Local runs only: the workspace root, when there is one. The engine then
  // runs under a read-only Landlock fence (docs/containment.md, Searches):
  // it reads only beneath the root and what it needs to run, and changes
  // nothing, whatever a path it is given has become since it was checked.
  std::string fence_root;
  // Real paths beneath `fence_root` whose files the engine may not read
  // (the read denylist's stores), whatever path it reaches them by.
  std::vector<std::string> fence_excluded;
  // Real paths of the search roots when they are all regular files: the
  // engine may then read only these files, bound when it starts (each opened
  // beneath `fence_root` without following links), not all of the root.
  std::vector<std::string> fence_files;
};

enum class RunEnd {
  kExited,     // the child exited on its own
  kSinkDone,   // the sink asked for no more records; the child was killed
  kTimedOut,   // the deadline passed; the child was killed
  kCancelled,  // `stop` was requested; the child was killed
};

struct RunOutcome {
  RunEnd end = RunEnd::kExited;
  int exit_code = -1;  // valid for kExited (128+signal when killed by one)
  std::string stderr_text;
};

// Receives each stdout record without its delimiter (a final unterminated
// record too); returns false to stop reading and kill the child.
using RecordSink = std::function<bool(std::string_view record)>;

// Runs `spec` here to completion, a sink stop, the deadline or
// cancellation. The child gets its own process group (killed as a group),
// stdin from /dev/null, default signal dispositions. Fails only when it
// cannot start.
Result<RunOutcome> run_records(const SpawnSpec& spec, const RecordSink& sink);

// The same on `backend`'s target: `cd -- <cwd> && exec -a <name> <argv…>`
// with every word quoted, run by the backend's local launcher (killing it
// ends the search). Fails when the launcher cannot start or the backend
// reports a transport error (its message).
Result<RunOutcome> run_records_on(backend::Backend& backend, const SpawnSpec& spec,
                                  const RecordSink& sink);

// The bash script run_records_on runs (exposed for tests).
std::string remote_script(const SpawnSpec& spec);

// The absolute path of `name` found on the local $PATH (read at each call,
// so a test can hide a tool), or empty.
std::string find_executable(std::string_view name);

}  // namespace hermes::search
