// SPDX-License-Identifier: MIT
#include "mcp/call_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <future>
#include <memory>
#include <mutex>

namespace hermes::mcp {
namespace {

using namespace std::chrono_literals;

// Calls that hold their workers until released: `call()` makes one;
// `started` says whether `count` of them run within 30 s (false, not a hang,
// when the pool never gives them workers). Declared after the pool, it
// releases them on the way out, so that a failed test still ends.
class HeldCalls {
 public:
  explicit HeldCalls(int count) : count_(count) {}
  ~HeldCalls() { release(); }
  std::function<void()> call() {
    return [state = state_] {
      {
        std::lock_guard lock(state->mu);
        ++state->running;
      }
      state->changed.notify_all();
      state->gate.wait();
    };
  }
  bool started() {
    std::unique_lock lock(state_->mu);
    return state_->changed.wait_for(lock, 30s, [&] { return state_->running >= count_; });
  }
  // How many have begun.
  int running() {
    std::lock_guard lock(state_->mu);
    return state_->running;
  }
  void release() {
    if (!released_) state_->release.set_value();
    released_ = true;
  }

 private:
  struct State {
    std::mutex mu;
    std::condition_variable changed;
    int running = 0;  // mu
    std::promise<void> release;
    std::shared_future<void> gate = release.get_future().share();
  };
  const int count_;
  std::shared_ptr<State> state_ = std::make_shared<State>();
  bool released_ = false;
};

TEST(CallPoolTest, RunsEveryTaskAndDrains) {
  CallPool pool;
  std::atomic<int> done{0};
  for (int i = 0; i < 200; ++i) pool.submit([&] { ++done; });
  pool.drain();
  EXPECT_EQ(done.load(), 200);
}

TEST(CallPoolTest, ABlockedTaskDoesNotHoldTheNextOne) {
  CallPool pool(CallPoolLimits{.min_workers = 1, .max_workers = 4});
  HeldCalls held(1);
  pool.submit(held.call());
  std::promise<void> quick;
  pool.submit([&] { quick.set_value(); });
  // The second task runs while the first still blocks (a queue behind the
  // first worker would make this wait forever: the bound is only a safety net).
  EXPECT_EQ(quick.get_future().wait_for(30s), std::future_status::ready);
  held.release();
  pool.drain();
}

TEST(CallPoolTest, GrowsNoFurtherThanItsCapAndQueuesTheRest) {
  CallPool pool(CallPoolLimits{.min_workers = 1, .max_workers = 3});
  HeldCalls held(3);
  for (int i = 0; i < 6; ++i) pool.submit(held.call());
  ASSERT_TRUE(held.started());  // three workers hold three calls; three wait in the queue
  EXPECT_EQ(pool.workers(), 3u);
  EXPECT_EQ(held.running(), 3);
  held.release();
  pool.drain();
  EXPECT_EQ(held.running(), 6);
  EXPECT_EQ(pool.workers(), 3u);
}

TEST(CallPoolTest, IdleWorkersRetireDownToTheMinimum) {
  CallPool pool(CallPoolLimits{.min_workers = 1, .max_workers = 4, .idle_timeout = 20ms});
  HeldCalls held(3);
  for (int i = 0; i < 3; ++i) pool.submit(held.call());
  ASSERT_TRUE(held.started());
  EXPECT_EQ(pool.workers(), 3u);
  held.release();
  pool.drain();
  for (int i = 0; i < 500 && pool.workers() > 1; ++i) std::this_thread::sleep_for(10ms);
  EXPECT_EQ(pool.workers(), 1u);
  std::atomic<bool> ran{false};
  pool.submit([&] { ran = true; });  // joins the retired threads, still serves
  pool.drain();
  EXPECT_TRUE(ran.load());
}

TEST(CallPoolTest, BriefCallsQueueForTheEagerWorkers) {
  CallPool pool(CallPoolLimits{.min_workers = 1, .max_workers = 8, .eager_workers = 1});
  HeldCalls held(1);
  pool.submit(held.call(), CallKind::kBrief);
  ASSERT_TRUE(held.started());
  std::promise<void> second;
  pool.submit([&] { second.set_value(); }, CallKind::kBrief);
  // No second thread for a brief call: it waits for the one worker.
  std::future<void> ran = second.get_future();
  EXPECT_EQ(ran.wait_for(100ms), std::future_status::timeout);
  EXPECT_EQ(pool.workers(), 1u);
  held.release();
  EXPECT_EQ(ran.wait_for(30s), std::future_status::ready);
  pool.drain();
}

TEST(CallPoolTest, ACallThatMayBlockGetsAWorkerOfItsOwn) {
  CallPool pool(CallPoolLimits{.min_workers = 1, .max_workers = 8, .eager_workers = 1});
  HeldCalls held(1);
  pool.submit(held.call(), CallKind::kBrief);
  ASSERT_TRUE(held.started());
  std::promise<void> blocking;
  pool.submit([&] { blocking.set_value(); }, CallKind::kMayBlock);
  EXPECT_EQ(blocking.get_future().wait_for(30s), std::future_status::ready);
  EXPECT_EQ(pool.workers(), 2u);
  held.release();
  pool.drain();
}

TEST(CallPoolTest, BlockedCallsNeverHoldBriefOnes) {
  CallPool pool(CallPoolLimits{.min_workers = 1, .max_workers = 8, .eager_workers = 1});
  HeldCalls held(2);
  for (int i = 0; i < 2; ++i) pool.submit(held.call(), CallKind::kMayBlock);
  ASSERT_TRUE(held.started());
  std::promise<void> brief;
  pool.submit([&] { brief.set_value(); }, CallKind::kBrief);
  EXPECT_EQ(brief.get_future().wait_for(30s), std::future_status::ready);
  EXPECT_EQ(pool.workers(), 3u);
  held.release();
  pool.drain();
}

TEST(CallPoolTest, DestructorWaitsForQueuedAndRunningTasks) {
  std::atomic<int> done{0};
  {
    CallPool pool(CallPoolLimits{.min_workers = 1, .max_workers = 2});
    for (int i = 0; i < 20; ++i) {
      pool.submit([&] {
        std::this_thread::sleep_for(1ms);
        ++done;
      });
    }
  }
  EXPECT_EQ(done.load(), 20);
}

}  // namespace
}  // namespace hermes::mcp
