// SPDX-License-Identifier: MIT
#include "tools/execute_code/kernel_pool.h"

#include <algorithm>

namespace hermes::execute_code {

// --- KernelSlot ---

std::optional<KernelSlot::Lease> KernelSlot::acquire(std::stop_token stop) {
  std::unique_lock lock(mu_);
  if (!free_.wait(lock, stop, [this] { return !busy_ || closed_; }) || closed_) {
    return std::nullopt;
  }
  busy_ = true;
  return Lease(*this);
}

void KernelSlot::close() {
  std::unique_ptr<Kernel> idle;
  {
    std::lock_guard lock(mu_);
    closed_ = true;
    if (kernel_) kernel_->kill();
    if (!busy_) idle = std::move(kernel_);
  }
  free_.notify_all();
  pool_->touched();
}

std::unique_ptr<Kernel> KernelSlot::take_idle(FreshReason why,
                                              std::optional<Clock::time_point> older_than) {
  std::lock_guard lock(mu_);
  if (busy_ || !kernel_ || (older_than && last_used_ > *older_than)) return nullptr;
  next_ = why;
  return std::move(kernel_);
}

bool KernelSlot::counts() const {
  std::lock_guard lock(mu_);
  return kernel_ != nullptr || starting_;
}

std::optional<KernelSlot::Clock::time_point> KernelSlot::idle_since() const {
  std::lock_guard lock(mu_);
  if (busy_ || !kernel_) return std::nullopt;
  return last_used_;
}

KernelSlot::Lease::~Lease() {
  if (!slot_) return;
  std::unique_ptr<Kernel> ended;
  {
    std::lock_guard lock(slot_->mu_);
    slot_->busy_ = false;
    slot_->last_used_ = Clock::now();
    if (slot_->closed_) ended = std::move(slot_->kernel_);
  }
  slot_->free_.notify_all();
  slot_->pool_->touched();
}

void KernelSlot::Lease::reset() {
  std::unique_ptr<Kernel> old;
  std::lock_guard lock(slot_->mu_);
  old = std::move(slot_->kernel_);
  slot_->next_ = FreshReason::kReset;
}

void KernelSlot::Lease::lost(FreshReason why) {
  std::unique_ptr<Kernel> old;
  std::lock_guard lock(slot_->mu_);
  old = std::move(slot_->kernel_);
  slot_->next_ = why;
}

Result<Kernel*> KernelSlot::Lease::kernel(const Starter& start) {
  std::unique_ptr<Kernel> dead;
  {
    std::lock_guard lock(slot_->mu_);
    if (slot_->kernel_ && slot_->kernel_->alive()) return slot_->kernel_.get();
    if (slot_->kernel_) {
      // It ended between calls (a thread of a cell called os._exit…).
      dead = std::move(slot_->kernel_);
      slot_->next_ = FreshReason::kDied;
    }
  }
  dead.reset();
  HERMES_TRY(slot_->pool_->make_room(*slot_));
  Result<std::unique_ptr<Kernel>> started = start();
  std::lock_guard lock(slot_->mu_);
  slot_->starting_ = false;
  if (!started) return started.error();
  slot_->kernel_ = std::move(*started);
  fresh_ = std::exchange(slot_->next_, FreshReason::kNone);
  return slot_->kernel_.get();
}

// --- KernelPool ---

std::shared_ptr<KernelPool> KernelPool::shared() {
  // Process-wide: the cap is per server.
  static const std::shared_ptr<KernelPool> pool = std::make_shared<KernelPool>();
  return pool;
}

KernelPool::~KernelPool() {
  if (spare_thread_.joinable()) spare_thread_.join();
  if (reaper_.joinable()) {
    reaper_.request_stop();
    reaper_.join();
  }
}

std::shared_ptr<KernelSlot> KernelPool::open_slot() {
  auto slot = std::make_shared<KernelSlot>(shared_from_this());
  std::lock_guard lock(mu_);
  std::erase_if(slots_, [](const std::weak_ptr<KernelSlot>& s) { return s.expired(); });
  slots_.push_back(slot);
  if (!reaper_.joinable()) {
    reaper_ = std::jthread([this](std::stop_token stop) { reap_loop(stop); });
  }
  return slot;
}

void KernelPool::set_limits(PoolLimits limits) {
  {
    std::lock_guard lock(mu_);
    limits_ = limits;
    ++generation_;
  }
  changed_.notify_all();
}

size_t KernelPool::kernel_count() const {
  std::lock_guard lock(mu_);
  size_t n = spare_ || spare_starting_ ? 1 : 0;
  for (const auto& slot : live_slots()) n += slot->counts() ? 1 : 0;
  return n;
}

std::vector<std::shared_ptr<KernelSlot>> KernelPool::live_slots() const {
  std::vector<std::shared_ptr<KernelSlot>> out;
  for (const auto& weak : slots_) {
    if (auto slot = weak.lock()) out.push_back(std::move(slot));
  }
  return out;
}

void KernelPool::offer_spare(std::function<Result<SpareKernel>()> start) {
  std::lock_guard lock(mu_);
  size_t live = 0;
  for (const auto& slot : live_slots()) live += slot->counts() ? 1 : 0;
  if (spare_ || spare_starting_ || live >= limits_.max_kernels) return;
  spare_starting_ = true;
  if (spare_thread_.joinable()) spare_thread_.join();  // it has finished
  spare_thread_ = std::jthread([this, start = std::move(start)] {
    Result<SpareKernel> started = start();
    {
      std::lock_guard done(mu_);
      spare_starting_ = false;
      if (started) spare_ = std::move(*started);
      ++generation_;
    }
    changed_.notify_all();
  });
}

std::unique_ptr<Kernel> KernelPool::take_spare(const std::string& key) {
  std::unique_lock lock(mu_);
  changed_.wait(lock, [this] { return !spare_starting_; });
  if (!spare_ || spare_->key != key || !spare_->kernel->alive()) return nullptr;
  std::unique_ptr<Kernel> taken = std::move(spare_->kernel);
  spare_.reset();
  return taken;
}

Status KernelPool::make_room(KernelSlot& slot) {
  std::vector<std::unique_ptr<Kernel>> evicted;  // destroyed after the locks
  std::vector<std::shared_ptr<KernelSlot>> slots;
  std::lock_guard lock(mu_);
  slots = live_slots();
  size_t live = spare_ ? 1 : 0;
  for (const auto& other : slots) live += other->counts() ? 1 : 0;
  if (live >= limits_.max_kernels && spare_) {
    evicted.push_back(std::move(spare_->kernel));
    spare_.reset();
    --live;
  }
  while (live >= limits_.max_kernels) {
    KernelSlot* oldest = nullptr;
    Clock::time_point oldest_use = Clock::time_point::max();
    for (const auto& other : slots) {
      auto since = other.get() == &slot ? std::nullopt : other->idle_since();
      if (since && *since < oldest_use) {
        oldest = other.get();
        oldest_use = *since;
      }
    }
    auto taken = oldest ? oldest->take_idle(FreshReason::kEvicted, std::nullopt) : nullptr;
    if (!taken) {
      return Error::Unavailable("All " + std::to_string(limits_.max_kernels) +
                                " Python kernels of this server are running code "
                                "(code_execution.max_kernels); try again when one finishes.");
    }
    evicted.push_back(std::move(taken));
    --live;
  }
  std::lock_guard slot_lock(slot.mu_);
  slot.starting_ = true;
  return {};
}

void KernelPool::touched() {
  {
    std::lock_guard lock(mu_);
    ++generation_;
  }
  changed_.notify_all();
}

void KernelPool::reap_loop(std::stop_token stop) {
  std::unique_lock lock(mu_);
  while (!stop.stop_requested()) {
    Clock::time_point now = Clock::now();
    Clock::time_point next = Clock::time_point::max();
    std::vector<std::unique_ptr<Kernel>> reaped;
    for (const auto& slot : live_slots()) {
      auto since = slot->idle_since();
      if (!since) continue;
      if (*since + limits_.idle_timeout <= now) {
        if (auto kernel = slot->take_idle(FreshReason::kIdle, now - limits_.idle_timeout)) {
          reaped.push_back(std::move(kernel));
        }
      } else {
        next = std::min(next, *since + limits_.idle_timeout);
      }
    }
    if (!reaped.empty()) {
      lock.unlock();
      reaped.clear();  // kills and reaps each tree
      lock.lock();
      continue;
    }
    uint64_t seen = generation_;
    auto changed = [this, seen] { return generation_ != seen; };
    if (next == Clock::time_point::max()) {
      changed_.wait(lock, stop, changed);
    } else {
      changed_.wait_until(lock, stop, next, changed);
    }
  }
}

}  // namespace hermes::execute_code
