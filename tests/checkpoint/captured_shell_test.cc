// SPDX-License-Identifier: MIT
// Shell calls whose commands run under the write capture: the store keeps
// what the commands changed, not a copy of the tree; restore brings the
// tree back byte for byte; a change the capture could not see is recorded
// by its metadata and never restored wrong; and a later call that is not
// captured (a docker backend) makes the store whole again first.
#include "proc/run.h"
#include "proc/spawn.h"
#include "proc/write_capture.h"
#include "testutil/temp_dir.h"

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>

#include "checkpoint/checkpoints.h"

namespace hermes::checkpoint {
namespace {

using testing::TempDir;
namespace stdfs = std::filesystem;

// Every file under `root` (its .git included) with its bytes and mode.
std::map<std::string, std::string> snapshot(const std::string& root) {
  std::map<std::string, std::string> out;
  for (const auto& e : stdfs::recursive_directory_iterator(root)) {
    std::string rel = stdfs::relative(e.path(), root);
    struct ::stat st {};
    ::lstat(e.path().c_str(), &st);
    std::string mode = std::to_string(st.st_mode);
    std::string bytes;
    if (e.is_regular_file()) {
      std::ifstream in(e.path(), std::ios::binary);
      bytes.assign(std::istreambuf_iterator<char>(in), {});
    }
    out[rel] = mode + ":" + bytes;
  }
  return out;
}

class CapturedShell : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!proc::write_capture_available(false)) GTEST_SKIP() << "no write capture here";
    auto made = checkpoints_.write_capture(work_.path(), settings_);
    ASSERT_TRUE(made.has_value()) << made.error().message;
    capture_ = *made;
  }

  // One shell call: begin, `script` run by bash in the workspace (under the
  // capture unless `captured` is false), finish.
  void call(const std::string& script, bool captured = true) {
    CallInfo info{.root = work_.path(),
                  .tool = "terminal",
                  .summary = script,
                  .shell = true,
                  .writes_captured = captured};
    auto ticket = checkpoints_.begin(info, settings_);
    ASSERT_TRUE(ticket.has_value()) << ticket.error().message;
    auto child = proc::spawn({.argv = {"bash", "-c", script},
                              .cwd = work_.path(),
                              .whole_tree = true,
                              .write_capture = captured ? capture_.get() : nullptr});
    ASSERT_TRUE(child.has_value()) << child.error().message;
    auto outcome = proc::run_bounded(*child, {}, {}, [](std::string_view) {});
    ASSERT_EQ(outcome.status.code, 0) << script;
    ASSERT_TRUE(checkpoints_.finish(*ticket, settings_).has_value());
  }

  uint64_t last_id() { return checkpoints_.list(work_.path())->back().id; }

  TempDir home_, work_;
  Checkpoints checkpoints_{home_.path() + "/checkpoints"};
  Settings settings_;
  std::shared_ptr<const proc::WriteCapture> capture_;
};

TEST_F(CapturedShell, TheStoreKeepsWhatTheCommandChangedNotTheTree) {
  std::string page(4000, 'p');
  for (int i = 0; i < 200; ++i) {
    work_.write("src/f" + std::to_string(i) + ".txt", page + std::to_string(i));
  }
  work_.write("run.sh", "#!/bin/sh\n");
  ::chmod(work_.file("run.sh").c_str(), 0755);
  work_.write(".git/HEAD", "ref: refs/heads/main\n");
  work_.write("gone/a.txt", "a\n");
  auto before = snapshot(work_.path());

  call(
      "sed -i 's/p/q/' src/f1.txt && echo x >> src/f2.txt && rm -rf gone && "
      "mv src/f3.txt moved.txt && chmod 600 run.sh && mkdir -p new/deep && echo n > new/deep/n && "
      "truncate -s 10 src/f4.txt && python3 -c \"open('src/f5.txt','w').write('py')\"");
  // The tree is 800 KB; the call changed five of its files.
  EXPECT_LT(checkpoints_.store_bytes(), 40'000u);

  auto report = checkpoints_.restore({.root = work_.path(), .id = last_id()}, settings_);
  ASSERT_TRUE(report.has_value()) << report.error().message;
  EXPECT_TRUE(report->not_restored.empty());
  EXPECT_EQ(snapshot(work_.path()), before);
  // Nothing runs: no capture is left behind.
  EXPECT_TRUE(stdfs::is_empty(checkpoints_.journal_of(work_.path()).dir() + "/captured"));
}

TEST_F(CapturedShell, EachCallKeepsTheStateTheLookBeforeItSaw) {
  work_.write("log", "0\n");
  call("echo 1 >> log");
  work_.write("log", "by hand\n");  // between calls: the next look's state
  call("echo 2 >> log; echo 3 >> log");
  auto all = checkpoints_.list(work_.path());
  ASSERT_EQ(all->size(), 2u);
  auto report = checkpoints_.restore({.root = work_.path(), .id = (*all)[1].id}, settings_);
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(work_.read("log"), "by hand\n");
  report =
      checkpoints_.restore({.root = work_.path(), .id = (*all)[0].id, .force = true}, settings_);
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(work_.read("log"), "0\n");
}

TEST_F(CapturedShell, AChangeTheCaptureDidNotSeeIsKeptByItsMetadata) {
  work_.write("mine.txt", "mine\n");
  work_.write("theirs.txt", "theirs\n");
  call("true");  // the look the next call starts from
  CallInfo info{.root = work_.path(), .tool = "terminal", .shell = true, .writes_captured = true};
  auto ticket = checkpoints_.begin(info, settings_);
  ASSERT_TRUE(ticket.has_value());
  // Written by this process, outside any captured tree, while the call runs.
  work_.write("theirs.txt", "changed outside\n");
  auto child = proc::spawn({.argv = {"bash", "-c", "echo changed > mine.txt"},
                            .cwd = work_.path(),
                            .write_capture = capture_.get()});
  ASSERT_TRUE(child.has_value());
  proc::run_bounded(*child, {}, {}, [](std::string_view) {});
  ASSERT_TRUE(checkpoints_.finish(*ticket, settings_).has_value());

  auto report = checkpoints_.restore({.root = work_.path(), .id = ticket->id}, settings_);
  ASSERT_TRUE(report.has_value());
  ASSERT_EQ(report->not_restored.size(), 1u);
  EXPECT_EQ(report->not_restored[0].first, "theirs.txt");
  EXPECT_EQ(work_.read("mine.txt"), "mine\n");
  EXPECT_EQ(work_.read("theirs.txt"), "changed outside\n");  // never a wrong old content
}

// While a background job runs, captures no call used are still removed
// once a later call's look has seen past them.
TEST_F(CapturedShell, CapturesNoCallUsedDoNotPileUpBesideARunningJob) {
  work_.write("opened", std::string(100'000, 'o'));
  pid_t job = ::fork();
  if (job == 0) {
    ::pause();
    ::_exit(0);
  }
  ASSERT_TRUE(checkpoints_.note_running(work_.path(), job).has_value());
  for (int i = 0; i < 4; ++i) call("touch opened");  // opened for writing, its bytes unchanged
  std::string captured = checkpoints_.journal_of(work_.path()).dir() + "/captured";
  size_t left = 0;
  for ([[maybe_unused]] const auto& e : stdfs::directory_iterator(captured)) ++left;
  EXPECT_LE(left, 1u);
  ::kill(job, SIGKILL);
  ::waitpid(job, nullptr, 0);
}

TEST_F(CapturedShell, AnUncapturedCallAfterCapturedOnesKeepsTheTreeFirst) {
  work_.write("a.txt", "a\n");
  work_.write("b.txt", "b\n");
  call("echo 1 > a.txt");
  // A backend whose commands the capture does not see (docker): its call
  // must find every old content in the store.
  call("echo 2 > b.txt", false);
  auto report = checkpoints_.restore({.root = work_.path(), .id = last_id()}, settings_);
  ASSERT_TRUE(report.has_value());
  EXPECT_TRUE(report->not_restored.empty());
  EXPECT_EQ(work_.read("b.txt"), "b\n");
  EXPECT_EQ(work_.read("a.txt"), "1\n");
}

}  // namespace
}  // namespace hermes::checkpoint
