// SPDX-License-Identifier: MIT
#include "mcp/call_pool.h"

#include "core/cpus.h"

#include <algorithm>

namespace hermes::mcp {

CallPool::CallPool(CallPoolLimits limits) : limits_(limits) {
  limits_.max_workers = std::max<size_t>(limits_.max_workers, 1);
  if (limits_.eager_workers == 0) limits_.eager_workers = std::max<size_t>(usable_cpus(), 2);
}

CallPool::~CallPool() {
  std::vector<std::thread> threads;
  {
    std::unique_lock lock(mu_);
    idle_.wait(lock, [&] { return queue_.empty() && running_ == 0; });
    stopping_ = true;
    threads.swap(threads_);
  }
  wake_.notify_all();
  for (auto& thread : threads) thread.join();
}

void CallPool::submit(std::function<void()> task, CallKind kind) {
  std::unique_lock lock(mu_);
  reap_exited();
  queue_.push_back({std::move(task), kind});
  if (kind == CallKind::kMayBlock) ++may_block_;
  if (needs_worker()) {
    ++alive_;
    threads_.emplace_back(&CallPool::work, this);
    return;
  }
  lock.unlock();
  wake_.notify_one();
}

void CallPool::drain() {
  std::unique_lock lock(mu_);
  idle_.wait(lock, [&] { return queue_.empty() && running_ == 0; });
}

size_t CallPool::workers() const {
  std::lock_guard lock(mu_);
  return alive_;
}

void CallPool::work() {
  std::unique_lock lock(mu_);
  while (!should_retire()) {
    if (queue_.empty()) {
      ++parked_;
      bool woken =
          wake_.wait_for(lock, limits_.idle_timeout, [&] { return !queue_.empty() || stopping_; });
      --parked_;
      if (!woken && alive_ > limits_.min_workers) break;
      continue;
    }
    Queued call = std::move(queue_.front());
    queue_.pop_front();
    ++running_;
    lock.unlock();
    call.task();
    call.task = nullptr;  // the closure's captures go before the lock is taken again
    lock.lock();
    --running_;
    if (call.kind == CallKind::kMayBlock) --may_block_;
    if (queue_.empty() && running_ == 0) idle_.notify_all();
  }
  --alive_;
  exited_.push_back(std::this_thread::get_id());
}

bool CallPool::should_retire() const { return stopping_ && queue_.empty(); }

// Every parked worker already has a queued task to take, and the workers
// alive do not cover the CPUs plus every call that may block.
bool CallPool::needs_worker() const {
  const size_t wanted = std::min(limits_.max_workers, limits_.eager_workers + may_block_);
  return queue_.size() > parked_ && alive_ < wanted;
}

void CallPool::reap_exited() {
  for (std::thread::id id : exited_) {
    auto it = std::find_if(threads_.begin(), threads_.end(),
                           [&](const std::thread& t) { return t.get_id() == id; });
    if (it == threads_.end()) continue;
    it->join();  // it has left work() and holds no lock: this returns at once
    threads_.erase(it);
  }
  exited_.clear();
}

}  // namespace hermes::mcp
