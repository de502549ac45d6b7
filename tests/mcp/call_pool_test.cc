// SPDX-License-Identifier: MIT
#include "mcp/call_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <latch>

namespace hermes::mcp {
namespace {

using namespace std::chrono_literals;

// Calls that hold their workers until released: `call()` makes one,
// `wait_started` returns once `count` of them run.
class HeldCalls {
 public:
  explicit HeldCalls(std::ptrdiff_t count) : started_(count) {}
  std::function<void()> call() {
    return [this] {
      started_.count_down();
      gate_.wait();
    };
  }
  void wait_started() { started_.wait(); }
  void release() { release_.set_value(); }

 private:
  std::promise<void> release_;
  std::shared_future<void> gate_ = release_.get_future().share();
  std::latch started_;
};

TEST(CallPoolTest, RunsEveryTaskAndDrains) {
  CallPool pool;
  std::atomic<int> done{0};
  for (int i = 0; i < 200; ++i) pool.submit([&] { ++done; });
  pool.drain();
  EXPECT_EQ(done.load(), 200);
}

TEST(CallPoolTest, ABlockedTaskDoesNotHoldTheNextOne) {
  HeldCalls held(1);
  CallPool pool(CallPoolLimits{.min_workers = 1, .max_workers = 4});
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
  std::promise<void> release;
  std::shared_future<void> gate = release.get_future().share();
  std::latch started(3);
  std::atomic<int> entered{0};
  std::atomic<int> done{0};
  for (int i = 0; i < 6; ++i) {
    pool.submit([&, gate] {
      if (entered++ < 3) started.count_down();
      gate.wait();
      ++done;
    });
  }
  started.wait();  // three workers hold three tasks; three wait in the queue
  EXPECT_EQ(pool.workers(), 3u);
  EXPECT_EQ(done.load(), 0);
  release.set_value();
  pool.drain();
  EXPECT_EQ(done.load(), 6);
  EXPECT_EQ(pool.workers(), 3u);
}

TEST(CallPoolTest, IdleWorkersRetireDownToTheMinimum) {
  HeldCalls held(3);
  CallPool pool(CallPoolLimits{.min_workers = 1, .max_workers = 4, .idle_timeout = 20ms});
  for (int i = 0; i < 3; ++i) pool.submit(held.call());
  held.wait_started();
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
  HeldCalls held(1);
  CallPool pool(CallPoolLimits{.min_workers = 1, .max_workers = 8, .eager_workers = 1});
  pool.submit(held.call(), CallKind::kBrief);
  held.wait_started();
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
  HeldCalls held(1);
  CallPool pool(CallPoolLimits{.min_workers = 1, .max_workers = 8, .eager_workers = 1});
  pool.submit(held.call(), CallKind::kBrief);
  held.wait_started();
  std::promise<void> blocking;
  pool.submit([&] { blocking.set_value(); }, CallKind::kMayBlock);
  EXPECT_EQ(blocking.get_future().wait_for(30s), std::future_status::ready);
  EXPECT_EQ(pool.workers(), 2u);
  held.release();
  pool.drain();
}

TEST(CallPoolTest, BlockedCallsNeverHoldBriefOnes) {
  HeldCalls held(2);
  CallPool pool(CallPoolLimits{.min_workers = 1, .max_workers = 8, .eager_workers = 1});
  for (int i = 0; i < 2; ++i) pool.submit(held.call(), CallKind::kMayBlock);
  held.wait_started();
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
