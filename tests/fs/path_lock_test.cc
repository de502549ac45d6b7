// SPDX-License-Identifier: MIT
// PathLocks: writers of one path take turns, and a holder that never lets
// go (any process of the user can lock the lock file) costs a waiting
// writer its patience or its cancellation, never a hung call.
#include "fs/path_lock.h"

#include "testutil/scoped_env.h"
#include "testutil/temp_dir.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <mutex>
#include <thread>
#include <vector>

namespace hermes::fs {
namespace {

using std::chrono::milliseconds;

// The whole lock file, held through a description of its own: it conflicts
// with every path's byte, as a stranger's lock would.
class WholeFileHold {
 public:
  WholeFileHold()
      : fd_(::open(PathLocks::lock_file().c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600)) {
    struct flock lock {};
    lock.l_type = F_WRLCK;
    lock.l_whence = SEEK_SET;
    held_ = fd_.valid() && ::fcntl(fd_.get(), F_OFD_SETLK, &lock) == 0;
  }
  bool held() const { return held_; }
  void release() { fd_.reset(); }

 private:
  proc::UniqueFd fd_;
  bool held_ = false;
};

// A lock file of the test's own: tests running beside it (other processes)
// take their locks in theirs.
class PathLocksTest : public ::testing::Test {
 private:
  hermes::testing::TempDir runtime_;
  hermes::testing::ScopedEnv runtime_env_{"XDG_RUNTIME_DIR", runtime_.path()};
};

TEST_F(PathLocksTest, SerialisesHoldersOfOnePath) {
  int inside = 0, max_inside = 0;
  std::vector<std::thread> threads;
  std::mutex mu;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 200; ++i) {
        auto lock = PathLocks::take({"/x/b", "/x/a", "/x/b"}, {});
        ASSERT_TRUE(lock.has_value()) << lock.error().message;
        {
          std::lock_guard g(mu);
          max_inside = std::max(max_inside, ++inside);
        }
        std::this_thread::yield();
        std::lock_guard g(mu);
        --inside;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(max_inside, 1);
}

TEST_F(PathLocksTest, AHolderThatNeverLetsGoCostsOnlyThePatience) {
  WholeFileHold stranger;
  ASSERT_TRUE(stranger.held());
  const auto start = std::chrono::steady_clock::now();
  auto lock = PathLocks::take({"/x/a"}, {}, milliseconds(300));
  const auto waited = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(lock.has_value());
  EXPECT_EQ(lock.error().code, ErrorCode::kUnavailable);
  EXPECT_NE(lock.error().message.find("'/x/a' has been locked by another writer"),
            std::string::npos)
      << lock.error().message;
  EXPECT_GE(waited, milliseconds(300));
  EXPECT_LT(waited, milliseconds(3000));
}

TEST_F(PathLocksTest, CancellationEndsTheWait) {
  WholeFileHold stranger;
  ASSERT_TRUE(stranger.held());
  std::stop_source stop;
  std::jthread canceller([&] {
    std::this_thread::sleep_for(milliseconds(100));
    stop.request_stop();
  });
  auto lock = PathLocks::take({"/x/a", "/x/b"}, stop.get_token());
  ASSERT_FALSE(lock.has_value());
  EXPECT_EQ(lock.error().code, ErrorCode::kCancelled);
}

TEST_F(PathLocksTest, AWaiterTakesTheLockOnceItIsGivenBack) {
  WholeFileHold stranger;
  ASSERT_TRUE(stranger.held());
  std::jthread releaser([&] {
    std::this_thread::sleep_for(milliseconds(100));
    stranger.release();
  });
  auto lock = PathLocks::take({"/x/a"}, {}, milliseconds(10000));
  EXPECT_TRUE(lock.has_value()) << lock.error().message;
}

// A brief call takes its lock in one attempt or not at all: it fails only
// while someone else holds the path's byte, and then holds it itself.
TEST_F(PathLocksTest, TryTakeFailsOnlyWhileAnotherHolderHasThePath) {
  {
    auto first = PathLocks::try_take("/x/a");
    ASSERT_TRUE(first.has_value());
    EXPECT_FALSE(PathLocks::try_take("/x/a").has_value());
    EXPECT_TRUE(PathLocks::try_take("/x/b").has_value());
    auto waiter = PathLocks::take({"/x/a"}, {}, milliseconds(50));
    EXPECT_FALSE(waiter.has_value()) << "a take got past a held try_take";
  }
  EXPECT_TRUE(PathLocks::try_take("/x/a").has_value());
  WholeFileHold stranger;
  ASSERT_TRUE(stranger.held());
  EXPECT_FALSE(PathLocks::try_take("/x/a").has_value());
  EXPECT_FALSE(PathLocks::try_take("/x/b").has_value());
  stranger.release();
  EXPECT_TRUE(PathLocks::try_take("/x/b").has_value());
}

// A lock file that cannot be used (a directory planted in its place): every
// write shares one process-wide lock, which a brief call never tries.
TEST_F(PathLocksTest, AnUnusableLockFileMakesEveryTryFail) {
  ASSERT_EQ(::mkdir(PathLocks::lock_file().c_str(), 0700), 0);
  EXPECT_FALSE(PathLocks::try_take("/x/a").has_value());
  auto lock = PathLocks::take({"/x/a"}, {});
  EXPECT_TRUE(lock.has_value()) << lock.error().message;
}

}  // namespace
}  // namespace hermes::fs
