// SPDX-License-Identifier: MIT
// A bounded pool of worker threads for tool calls, independent of any
// transport. A call goes to a parked worker when one is idle. Otherwise the
// pool starts another worker while fewer than `eager_workers` (the CPUs) plus
// one per call that may block are alive, up to `max_workers`:
// - a call that may block (a terminal command waiting on a build) thus has a
//   worker of its own, and never holds a short one (a 4 KB read) behind it;
// - brief calls (CPU and local files only) on a busy pool queue for about as
//   many workers as there are cores, instead of each starting a thread and
//   all of them switching at once.
// Queued calls are taken in FIFO order. Workers idle for `idle_timeout` exit,
// down to `min_workers`.
//
// Use: one pool per server (or per transport); `submit` a closure per call;
// the closure does its own cancellation (a stop token it checks) and its own
// reply. `drain` waits until every submitted closure has returned; the
// destructor drains, then joins the workers. Thread-safe.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace hermes::mcp {

enum class CallKind {
  kMayBlock,  // may wait on processes, the network or the client
  kBrief,     // ends in about a millisecond of CPU and local I/O
};

struct CallPoolLimits {
  size_t min_workers = 2;
  size_t max_workers = 64;
  size_t eager_workers = 0;  // workers for brief calls; 0: usable_cpus(), at least 2
  std::chrono::milliseconds idle_timeout{30'000};
};

class CallPool {
 public:
  explicit CallPool(CallPoolLimits limits = {});
  ~CallPool();
  CallPool(const CallPool&) = delete;
  CallPool& operator=(const CallPool&) = delete;

  // Runs `task` on a worker; never blocks the caller. A task must not throw.
  void submit(std::function<void()> task, CallKind kind = CallKind::kMayBlock);
  // Returns once no task is queued or running.
  void drain();
  // Threads alive now (for tests and diagnostics).
  size_t workers() const;

 private:
  struct Queued {
    std::function<void()> task;
    CallKind kind;
  };

  void work();
  bool should_retire() const;  // mu_ held
  void reap_exited();          // mu_ held
  bool needs_worker() const;   // mu_ held

  CallPoolLimits limits_;
  mutable std::mutex mu_;
  std::condition_variable wake_;         // a task is queued, or stopping
  std::condition_variable idle_;         // the pool went idle
  std::deque<Queued> queue_;             // mu_
  std::vector<std::thread> threads_;     // mu_
  std::vector<std::thread::id> exited_;  // mu_: retired, to join
  size_t alive_ = 0;                     // mu_
  size_t parked_ = 0;                    // mu_: waiting for work
  size_t running_ = 0;                   // mu_
  size_t may_block_ = 0;                 // mu_: such calls queued or running
  bool stopping_ = false;                // mu_
};

}  // namespace hermes::mcp
