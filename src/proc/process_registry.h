// SPDX-License-Identifier: MIT
// Background jobs: each runs in its own process group with a reader thread
// feeding a rolling output buffer, watch patterns and completion events.
#pragma once

#include "core/result.h"
#include "proc/spawn.h"

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace hermes::proc {

struct ProcessEvent {
  enum class Kind { kCompletion, kWatchMatch, kWatchDisabled };
  Kind kind = Kind::kCompletion;
  std::string id;
  std::string command;
  int exit_code = 0;
  std::string completion_reason;
  std::string pattern;  // kWatchMatch
  std::string output;   // raw bytes: the matching lines, or the tail
  int suppressed = 0;   // kWatchMatch: matches dropped by the cooldown
};

// Called on the job's reader thread; must not block for long.
using EventSink = std::function<void(const ProcessEvent&)>;

struct StartRequest {
  SpawnOptions spawn;
  std::string command;
  std::string cwd;
  bool notify_on_complete = false;
  std::vector<std::string> watch_patterns;
  // When the session ends: SIGTERM to the job's tree (what an exited job
  // left running included), SIGKILL to what is left after this grace.
  std::chrono::milliseconds kill_grace{3000};
  EventSink on_event;
  // Runs on the reader thread after the job was killed or the session ended
  // it: ends what the local kill cannot reach (the command on an ssh host).
  std::function<void()> on_cut_short;
};

// A copy of one job's state (output included) taken under its lock.
struct ProcessSnapshot {
  std::string id, command, cwd;
  pid_t pid = -1;
  std::chrono::system_clock::time_point started_at, exited_at;
  bool running = true;
  bool pty = false;
  bool has_stdin = false;
  int exit_code = 0;
  std::string completion_reason;   // exited, killed, session_closed
  std::string termination_source;  // exit, process.kill, session_end
  std::string output;              // the rolling buffer (raw bytes)
};

enum class KillOutcome { kKilled, kAlreadyExited };

// What a kill achieved. With a whole-tree job (SpawnOptions::whole_tree)
// every process the job started is accounted for.
struct KillReport {
  KillOutcome outcome = KillOutcome::kAlreadyExited;
  // Processes of the job's tree still alive after SIGKILL (stuck in the
  // kernel, say).
  std::vector<pid_t> survivors;
  // The tree's supervisor was killed (by the command itself) and some of
  // what came back to the server could not be ended (proc/child_ledger.h).
  bool untracked = false;
  // SIGTERM did not end the job within the grace: SIGKILL did (or tried).
  bool forced = false;
  bool complete() const { return survivors.empty() && !untracked; }
};

// Limits from docs/terminal.md.
struct RegistryLimits {
  size_t buffer_chars = 200'000;
  size_t max_tracked = 64;
  std::chrono::seconds keep_finished{1800};
  std::chrono::seconds watch_cooldown{15};
  int watch_strikes = 3;
  int watch_lifetime_matches = 8;
  // Session-wide breaker: more than this many watch notices within the
  // window mutes every watch notice for `watch_global_mute`.
  int watch_global_limit = 15;
  std::chrono::seconds watch_global_window{10};
  std::chrono::seconds watch_global_mute{30};
};

// Owns every job of one session; the destructor ends them all (`end_all`).
// Thread-safe.
class ProcessRegistry {
 public:
  explicit ProcessRegistry(RegistryLimits limits = {});
  ~ProcessRegistry();
  ProcessRegistry(const ProcessRegistry&) = delete;
  ProcessRegistry& operator=(const ProcessRegistry&) = delete;

  // Spawns and tracks a job; returns its id `proc_<12 hex>`. kUnavailable
  // when `max_tracked` jobs are all still running; spawn errors pass through.
  Result<std::string> start(StartRequest request);
  // An exact id, else a unique prefix (a bare hex string of 4+ characters
  // means `proc_<hex>`). kNotFound otherwise.
  Result<std::string> resolve(std::string_view given) const;
  std::vector<ProcessSnapshot> list() const;
  std::optional<ProcessSnapshot> snapshot(const std::string& id) const;
  // Blocks until the job exits (true), `timeout` passes or `stop` fires.
  bool wait(const std::string& id, std::chrono::milliseconds timeout, std::stop_token stop);
  // Group SIGTERM, SIGKILL after `grace`; waits for the reader to record it.
  // A whole-tree job gets the grace as a whole, and what an exited job left
  // running is ended too.
  KillReport kill(const std::string& id, std::chrono::milliseconds grace);
  // stdin: kUnavailable when closed/absent, kConflict once exited.
  Status write(const std::string& id, std::string_view data);
  // Closes a stdin pipe; on a pty sends EOF (Ctrl-D).
  Status close_stdin(const std::string& id);
  // Marks the output as read (wait/log): the completion event is skipped.
  void mark_read(const std::string& id);
  // Ends every job and what it left running (SIGTERM, then SIGKILL after the
  // job's `kill_grace`, all jobs at once) and joins their threads; the
  // registry is empty afterwards.
  void end_all();

  // Opaque per-job state and the shared watch breaker (defined in the .cc).
  struct Job;
  struct WatchBreaker;

 private:
  std::shared_ptr<Job> find(const std::string& id) const;
  void prune_locked();

  RegistryLimits limits_;
  std::shared_ptr<WatchBreaker> breaker_;
  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<Job>> jobs_;  // mu_
};

}  // namespace hermes::proc
