// SPDX-License-Identifier: MIT
// The server's execute_code kernels (docs/tools/execute_code.md, The
// kernel): one slot per session, at most `max_kernels` live at once (the
// least recently used idle one goes first; a running cell is never
// evicted), and idle kernels reaped on a timer.
#pragma once

#include "core/result.h"
#include "tools/execute_code/kernel.h"

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

namespace hermes::execute_code {

// Why a call runs in a kernel it did not run in before: its state is gone.
enum class FreshReason { kNone, kFirstUse, kReset, kDied, kMemory, kIdle, kEvicted };

struct PoolLimits {
  size_t max_kernels = 8;
  std::chrono::milliseconds idle_timeout{std::chrono::minutes(30)};
};

class KernelPool;

// One session's kernel. Thread-safe; the session's calls run one at a time.
class KernelSlot {
 public:
  explicit KernelSlot(std::shared_ptr<KernelPool> pool) : pool_(std::move(pool)) {}
  KernelSlot(const KernelSlot&) = delete;
  KernelSlot& operator=(const KernelSlot&) = delete;

  using Starter = std::function<Result<std::unique_ptr<Kernel>>()>;

  // The slot, held by one call.
  class Lease {
   public:
    explicit Lease(KernelSlot& slot) : slot_(&slot) {}
    Lease(Lease&& other) noexcept : slot_(std::exchange(other.slot_, nullptr)) {}
    Lease& operator=(Lease&&) = delete;
    ~Lease();

    // Restarts the kernel on the next `kernel()` (reset: true).
    void reset();
    // The live kernel, started by `start` (after making room in the pool)
    // when there is none or it died since the last call.
    Result<Kernel*> kernel(const Starter& start);
    // Why kernel() started a new one (kNone: it is the previous call's).
    FreshReason fresh() const { return fresh_; }
    // The kernel died or was stopped during the call (`why`: kDied or
    // kMemory): the next call starts a new one.
    void lost(FreshReason why);

   private:
    KernelSlot* slot_;
    FreshReason fresh_ = FreshReason::kNone;
  };

  // Waits for the session's call in progress; nullopt when `stop` is
  // requested first or the session has ended.
  std::optional<Lease> acquire(std::stop_token stop);

  // Session end: the kernel's tree is killed now (a running cell then
  // ends) and no kernel starts after.
  void close();

 private:
  friend class KernelPool;
  using Clock = std::chrono::steady_clock;

  // For the pool: takes the kernel when idle (not leased) and, with
  // `older_than`, unused since before it; the next kernel is fresh for `why`.
  std::unique_ptr<Kernel> take_idle(FreshReason why, std::optional<Clock::time_point> older_than);
  // Whether the slot holds or is starting a kernel, and since when it is idle.
  bool counts() const;
  std::optional<Clock::time_point> idle_since() const;

  std::shared_ptr<KernelPool> pool_;
  mutable std::mutex mu_;
  std::condition_variable_any free_;
  std::unique_ptr<Kernel> kernel_;             // mu_
  bool busy_ = false;                          // mu_
  bool closed_ = false;                        // mu_
  bool starting_ = false;                      // mu_: room was made, the kernel is starting
  Clock::time_point last_used_{};              // mu_
  FreshReason next_ = FreshReason::kFirstUse;  // mu_
};

// A kernel started before any session asked for it, and what it was
// started as (`key`: a session takes it only for an identical spec).
struct SpareKernel {
  std::string key;
  std::unique_ptr<Kernel> kernel;
};

// Thread-safe. The reaper thread starts with the first slot.
class KernelPool : public std::enable_shared_from_this<KernelPool> {
 public:
  // The server's pool.
  static std::shared_ptr<KernelPool> shared();
  KernelPool() = default;
  ~KernelPool();

  std::shared_ptr<KernelSlot> open_slot();
  // Read from the configuration on every call; takes effect at once.
  void set_limits(PoolLimits limits);
  // The live kernels, the spare included (a test's view).
  size_t kernel_count() const;

  // Keeps one warm spare (code_execution.prestart_kernel): unless there is
  // one, or it is being started, or the pool is at its cap, `start` runs on
  // a thread of its own. At the cap the spare is the first kernel to go.
  void offer_spare(std::function<Result<SpareKernel>()> start);
  // The spare when it was started as `key` (waiting for one being
  // started); nullptr otherwise.
  std::unique_ptr<Kernel> take_spare(const std::string& key);

 private:
  friend class KernelSlot;
  using Clock = std::chrono::steady_clock;

  // Room for `slot`'s kernel: at the cap the least recently used idle
  // kernel of another slot goes. kUnavailable when every one runs a cell.
  Status make_room(KernelSlot& slot);
  // A slot's kernel went idle or away: the reaper recomputes its deadline.
  void touched();
  void reap_loop(std::stop_token stop);
  std::vector<std::shared_ptr<KernelSlot>> live_slots() const;  // mu_ held

  mutable std::mutex mu_;
  std::condition_variable_any changed_;
  std::vector<std::weak_ptr<KernelSlot>> slots_;  // mu_
  PoolLimits limits_;                             // mu_
  uint64_t generation_ = 0;                       // mu_: bumped by every change
  std::optional<SpareKernel> spare_;              // mu_
  bool spare_starting_ = false;                   // mu_
  std::jthread spare_thread_;                     // mu_
  std::jthread reaper_;                           // started by open_slot
};

}  // namespace hermes::execute_code
