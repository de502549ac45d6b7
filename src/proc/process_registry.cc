// SPDX-License-Identifier: MIT
// ProcessRegistry: one reader thread per job drives run_bounded; the job's
// mutex guards its buffer and status; the condition variable wakes waiters.
#include "proc/process_registry.h"

#include "core/strings.h"
#include "proc/child_ledger.h"
#include "proc/run.h"

#include <signal.h>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <thread>
#include <vector>

namespace hermes::proc {

using SteadyClock = std::chrono::steady_clock;

// How long a SIGKILLed job may take to be gone before kill() answers anyway.
constexpr std::chrono::seconds kKillLimit{5};

// Counts watch notices across the session's jobs. Thread-safe.
struct ProcessRegistry::WatchBreaker {
  std::mutex mu;
  std::deque<SteadyClock::time_point> recent;  // mu
  SteadyClock::time_point muted_until{};       // mu

  bool allow(SteadyClock::time_point now, const RegistryLimits& limits) {
    std::lock_guard lock(mu);
    if (now < muted_until) return false;
    while (!recent.empty() && now - recent.front() > limits.watch_global_window) recent.pop_front();
    if (static_cast<int>(recent.size()) >= limits.watch_global_limit) {
      muted_until = now + limits.watch_global_mute;
      recent.clear();
      return false;
    }
    recent.push_back(now);
    return true;
  }
};

struct ProcessRegistry::Job {
  std::string id;
  StartRequest request;
  ChildProcess child;
  std::jthread reader;
  mutable std::mutex mu;
  // Serialises stdin writes without holding `mu`, so a child that does not
  // read cannot block polls or its own output reader.
  std::mutex stdin_mu;
  std::condition_variable_any cv;
  std::chrono::system_clock::time_point started_at, exited_at;
  bool running = true;         // mu
  bool killed = false;         // mu
  bool output_read = false;    // mu
  int exit_code = 0;           // mu
  std::string reason, source;  // mu
  std::string buffer;          // mu
  std::string partial_line;    // reader thread only
  std::shared_ptr<ProcessRegistry::WatchBreaker> breaker;
  // Watch-pattern rate limiting (reader thread only).
  SteadyClock::time_point last_notice{};
  int dropped = 0, strikes = 0, matches = 0;
  bool watch_disabled = false;
};

namespace {

std::string new_id() { return "proc_" + random_hex(6); }

// Keeps about the last `cap` bytes, cutting at a code-point start.
// Where the last `cap` characters of `buffer` begin: UTF-8 code points,
// never more than 4 bytes each even when the bytes are not valid UTF-8.
size_t tail_start(std::string_view buffer, size_t cap) {
  size_t at = buffer.size(), chars = 0;
  while (at > 0 && chars < cap && buffer.size() - at < 4 * cap) {
    --at;
    if ((static_cast<unsigned char>(buffer[at]) & 0xC0) != 0x80) ++chars;
  }
  return at;
}

// Trimmed in bulk once the buffer doubles, so appends stay amortised O(1);
// readers see only the last `cap` characters (take_snapshot).
void trim_front(std::string& buffer, size_t cap) {
  if (buffer.size() <= 2 * cap) return;
  buffer.erase(0, tail_start(buffer, cap));
}

bool is_hex(std::string_view s) {
  return s.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

}  // namespace

namespace {

using Job = ProcessRegistry::Job;

void check_watch(Job& job, const std::string& line, const RegistryLimits& limits) {
  if (job.watch_disabled || !job.request.on_event) return;
  const std::string* hit = nullptr;
  for (const std::string& p : job.request.watch_patterns) {
    if (line.find(p) != std::string::npos) hit = &p;
  }
  if (!hit) return;
  auto now = SteadyClock::now();
  if (job.matches > 0 && now - job.last_notice < limits.watch_cooldown) {
    ++job.dropped;
    return;
  }
  // A window that had to drop matches is a strike; enough in a row and the
  // job is too chatty to watch: fall back to one completion notice.
  job.strikes = job.dropped > 0 ? job.strikes + 1 : 0;
  if (job.strikes >= limits.watch_strikes || job.matches >= limits.watch_lifetime_matches) {
    job.watch_disabled = true;
    job.request.notify_on_complete = true;
    job.request.on_event({ProcessEvent::Kind::kWatchDisabled, job.id, job.request.command});
    return;
  }
  if (!job.breaker->allow(now, limits)) {
    ++job.dropped;
    return;
  }
  ProcessEvent e{ProcessEvent::Kind::kWatchMatch, job.id, job.request.command};
  e.pattern = *hit;
  e.output = line.substr(0, 2000);
  e.suppressed = job.dropped;
  job.dropped = 0;
  ++job.matches;
  job.last_notice = now;
  job.request.on_event(e);
}

// Terminal programs that ask the pty for the cursor position or device
// attributes block until answered; answer like a plain 30x120 terminal.
void answer_device_queries(Job& job, std::string_view bytes) {
  if (!job.child.is_pty() || bytes.find('\x1b') == std::string_view::npos) return;
  std::string reply;
  if (bytes.find("\x1b[6n") != std::string_view::npos) reply += "\x1b[1;1R";
  if (bytes.find("\x1b[c") != std::string_view::npos ||
      bytes.find("\x1b[0c") != std::string_view::npos) {
    reply += "\x1b[?1;2c";
  }
  if (reply.empty()) return;
  std::lock_guard lock(job.stdin_mu);
  [[maybe_unused]] Status st = job.child.write_stdin(reply, std::chrono::milliseconds(100));
}

void on_output(Job& job, std::string_view bytes, const RegistryLimits& limits) {
  answer_device_queries(job, bytes);
  {
    std::lock_guard lock(job.mu);
    job.buffer.append(bytes);
    trim_front(job.buffer, limits.buffer_chars);
  }
  if (job.request.watch_patterns.empty()) return;
  job.partial_line.append(bytes);
  size_t start = 0;
  for (size_t nl; (nl = job.partial_line.find('\n', start)) != std::string::npos; start = nl + 1) {
    check_watch(job, job.partial_line.substr(start, nl - start), limits);
  }
  job.partial_line.erase(0, start);
  if (job.partial_line.size() > 64 * 1024) job.partial_line.clear();
}

void finish(Job& job, const RunOutcome& outcome) {
  ProcessEvent event{ProcessEvent::Kind::kCompletion, job.id, job.request.command};
  bool notify;
  {
    std::lock_guard lock(job.mu);
    job.running = false;
    job.exited_at = std::chrono::system_clock::now();
    if (job.killed) {
      job.exit_code = -SIGTERM;
      job.reason = "killed";
      job.source = "process.kill";
    } else if (outcome.end == RunEnd::kCancelled) {
      job.exit_code = outcome.status.code;
      job.reason = "session_closed";
      job.source = "session_end";
    } else {
      job.exit_code = outcome.status.code;
      job.reason = "exited";
      job.source = "exit";
    }
    event.exit_code = job.exit_code;
    event.completion_reason = job.reason;
    event.output = job.buffer.substr(job.buffer.size() - std::min<size_t>(job.buffer.size(), 8000));
    notify = job.request.notify_on_complete && !job.output_read &&
             outcome.end != RunEnd::kCancelled && job.request.on_event;
  }
  job.cv.notify_all();
  if (notify) job.request.on_event(event);
  bool cut_short = event.completion_reason != "exited";
  if (cut_short && job.request.on_cut_short) job.request.on_cut_short();
}

ProcessSnapshot take_snapshot(const Job& job, size_t buffer_chars) {
  std::lock_guard lock(job.mu);
  ProcessSnapshot s;
  s.id = job.id;
  s.command = job.request.command;
  s.cwd = job.request.cwd;
  s.pid = job.child.pid();
  s.started_at = job.started_at;
  s.exited_at = job.exited_at;
  s.running = job.running;
  s.pty = job.child.is_pty();
  s.has_stdin = job.child.has_stdin();
  s.exit_code = job.exit_code;
  s.completion_reason = job.reason;
  s.termination_source = job.source;
  s.output = job.buffer.substr(tail_start(job.buffer, buffer_chars));
  return s;
}

}  // namespace

ProcessRegistry::ProcessRegistry(RegistryLimits limits)
    : limits_(limits), breaker_(std::make_shared<WatchBreaker>()) {}

ProcessRegistry::~ProcessRegistry() { end_all(); }

void ProcessRegistry::end_all() {
  std::map<std::string, std::shared_ptr<Job>> jobs;
  {
    std::lock_guard lock(mu_);
    jobs.swap(jobs_);
  }
  // Stop all first so the jobs' graces run side by side, then join: each
  // running job's reader ends it (SIGTERM, SIGKILL after its grace).
  for (auto& [id, job] : jobs) job->reader.request_stop();
  for (auto& [id, job] : jobs) {
    if (job->reader.joinable()) job->reader.join();
  }
  // What an exited job left running (a daemon in its tree) is ended the same
  // way, never SIGKILLed at once: SIGTERM now, SIGKILL to what is left when
  // the longest grace is over (the child's destructor).
  std::vector<Job*> left;
  SteadyClock::time_point until = SteadyClock::now();
  for (auto& [id, job] : jobs) {
    if (job->child.survivors().empty()) continue;
    job->child.signal_group(SIGTERM);
    left.push_back(job.get());
    until = std::max(until, SteadyClock::now() + job->request.kill_grace);
  }
  for (Job* job : left) {
    auto rest = std::chrono::duration_cast<std::chrono::milliseconds>(until - SteadyClock::now());
    job->child.wait_tree_gone(std::max(rest, std::chrono::milliseconds(0)));
  }
}

void ProcessRegistry::prune_locked() {
  auto now = std::chrono::system_clock::now();
  for (auto it = jobs_.begin(); it != jobs_.end();) {
    std::lock_guard lock(it->second->mu);
    bool expired = !it->second->running && now - it->second->exited_at > limits_.keep_finished;
    it = expired ? jobs_.erase(it) : std::next(it);
  }
  while (jobs_.size() >= limits_.max_tracked) {
    auto oldest = jobs_.end();
    for (auto it = jobs_.begin(); it != jobs_.end(); ++it) {
      std::lock_guard lock(it->second->mu);
      if (!it->second->running &&
          (oldest == jobs_.end() || it->second->exited_at < oldest->second->exited_at)) {
        oldest = it;
      }
    }
    if (oldest == jobs_.end()) return;
    jobs_.erase(oldest);
  }
}

Result<std::string> ProcessRegistry::start(StartRequest request) {
  std::lock_guard lock(mu_);
  prune_locked();
  if (jobs_.size() >= limits_.max_tracked) {
    return Error::Unavailable("Too many background processes are running (limit " +
                              std::to_string(limits_.max_tracked) + ")");
  }
  HERMES_ASSIGN_OR_RETURN(ChildProcess child, spawn(request.spawn));
  auto job = std::make_shared<Job>();
  job->id = new_id();
  job->request = std::move(request);
  job->child = std::move(child);
  job->started_at = std::chrono::system_clock::now();
  job->breaker = breaker_;
  Job* raw = job.get();
  RegistryLimits limits = limits_;
  job->reader = std::jthread([raw, limits](std::stop_token stop) {
    RunOutcome outcome = run_bounded(
        raw->child,
        {.drain_grace = std::chrono::milliseconds(300), .kill_grace = raw->request.kill_grace},
        stop, [&](std::string_view b) { on_output(*raw, b, limits); });
    finish(*raw, outcome);
  });
  jobs_[job->id] = job;
  return job->id;
}

std::shared_ptr<ProcessRegistry::Job> ProcessRegistry::find(const std::string& id) const {
  std::lock_guard lock(mu_);
  auto it = jobs_.find(id);
  return it == jobs_.end() ? nullptr : it->second;
}

Result<std::string> ProcessRegistry::resolve(std::string_view given) const {
  std::string key(given);
  if (is_hex(key) && key.size() >= 4) key = "proc_" + key;
  std::lock_guard lock(mu_);
  if (jobs_.count(key)) return key;
  std::vector<std::string> hits;
  for (const auto& [id, job] : jobs_) {
    if (!key.empty() && id.compare(0, key.size(), key) == 0) hits.push_back(id);
  }
  if (hits.size() == 1 && key.size() > 5) return hits[0];
  return Error::NotFound("No process with ID " + std::string(given));
}

std::vector<ProcessSnapshot> ProcessRegistry::list() const {
  std::vector<std::shared_ptr<Job>> jobs;
  {
    std::lock_guard lock(mu_);
    for (const auto& [id, job] : jobs_) jobs.push_back(job);
  }
  std::vector<ProcessSnapshot> out;
  for (const auto& job : jobs) out.push_back(take_snapshot(*job, limits_.buffer_chars));
  return out;
}

std::optional<ProcessSnapshot> ProcessRegistry::snapshot(const std::string& id) const {
  auto job = find(id);
  if (!job) return std::nullopt;
  return take_snapshot(*job, limits_.buffer_chars);
}

bool ProcessRegistry::wait(const std::string& id, std::chrono::milliseconds timeout,
                           std::stop_token stop) {
  auto job = find(id);
  if (!job) return true;
  std::unique_lock lock(job->mu);
  job->cv.wait_for(lock, stop, timeout, [&] { return !job->running; });
  return !job->running;
}

KillReport ProcessRegistry::kill(const std::string& id, std::chrono::milliseconds grace) {
  auto job = find(id);
  if (!job) return {};
  std::unique_lock lock(job->mu);
  KillReport report{job->running ? KillOutcome::kKilled : KillOutcome::kAlreadyExited};
  bool whole_tree = job->child.whole_tree();
  if (!job->running && !whole_tree) return report;
  job->killed = job->running;
  job->child.signal_group(SIGTERM);
  if (whole_tree) {
    lock.unlock();
    report.forced = !job->child.wait_tree_gone(grace);
    if (report.forced) job->child.signal_group(SIGKILL);
    job->child.wait_tree_gone(kKillLimit);
    report.survivors = job->child.survivors();
    // A killed supervisor handed its tree back to this process: end it.
    report.untracked = job->child.escaped() && end_adopted() > 0;
    lock.lock();
  } else if (!job->cv.wait_for(lock, grace, [&] { return !job->running; })) {
    report.forced = true;
    job->child.signal_group(SIGKILL);
  }
  // The reader records the end once the output is drained.
  job->cv.wait_for(lock, kKillLimit, [&] { return !job->running; });
  return report;
}

namespace {

bool has_finished(const Job& job) {
  std::lock_guard lock(job.mu);
  return !job.running;
}

}  // namespace

Status ProcessRegistry::write(const std::string& id, std::string_view data) {
  auto job = find(id);
  if (!job) return Error::NotFound("No process with ID " + id);
  std::lock_guard lock(job->stdin_mu);
  if (has_finished(*job)) return Error{ErrorCode::kConflict, "Process has already finished"};
  return job->child.write_stdin(data);
}

Status ProcessRegistry::close_stdin(const std::string& id) {
  auto job = find(id);
  if (!job) return Error::NotFound("No process with ID " + id);
  std::lock_guard lock(job->stdin_mu);
  if (has_finished(*job)) return Error{ErrorCode::kConflict, "Process has already finished"};
  if (job->child.is_pty()) return job->child.write_stdin("\x04");
  if (!job->child.has_stdin()) return Error::Unavailable("stdin closed");
  job->child.close_stdin();
  return {};
}

void ProcessRegistry::mark_read(const std::string& id) {
  if (auto job = find(id)) {
    std::lock_guard lock(job->mu);
    job->output_read = true;
  }
}

}  // namespace hermes::proc
