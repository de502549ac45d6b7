// SPDX-License-Identifier: MIT
// A shell call's changes found from a ChangeWatch's events are the changes
// a whole walk finds, for any mix of changes a shell makes; a call that
// changes nothing reads no directory; lost events fall back to a walk.
#include "checkpoint/change_watch.h"

#include "testutil/temp_dir.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <random>

#include "checkpoint/checkpoints.h"
#include "checkpoint/tree_index.h"

namespace hermes::checkpoint {
namespace {

using testing::TempDir;

// Random changes of every kind a shell makes, in a small namespace so they
// collide: writes, appends, truncation, modes, removal, renames of files
// and folders (within the tree, out of it and back in), links, a folder
// made with its contents in one go, a file replaced by a folder.
class Churn {
 public:
  Churn(const TempDir& work, const TempDir& outside, uint32_t seed)
      : work_(work), outside_(outside), random_(seed) {}

  void step(const TreeIndex& now) {
    std::vector<std::string> files, dirs{""};
    for (const auto& [rel, entry] : now) {
      // An ignored folder too: written into, renamed (out of the ignored
      // names, so what it holds must be walked), removed.
      if (entry.state.kind == Kind::kDir || entry.state.kind == Kind::kIgnoredDir) {
        dirs.push_back(rel);
      }
      if (entry.state.kind == Kind::kFile) files.push_back(rel);
    }
    std::string dir = pick(dirs), file = files.empty() ? "f0" : pick(files);
    std::string fresh =
        join(dir, pick(std::vector<std::string>{"f0", "f1", "f2", "d0", "d1", "node_modules"}));
    std::string other = pick(dirs);
    switch (number(14)) {
      case 0:
        std::ofstream(at(fresh)) << "new " << number(1000) << "\n";
        break;
      case 1:
        append(file);
        break;
      case 2:
        (void)::truncate(at(file).c_str(), 0);
        break;
      case 3:
        (void)::chmod(at(number(2) ? file : dir).c_str(), number(2) ? 0600 : 0755);
        break;
      case 4:
        (void)::unlink(at(file).c_str());
        break;
      case 5:
        (void)::mkdir(at(fresh).c_str(), 0755);
        break;
      case 6:
        shell("rm -rf '" + at(dir) + "'", !dir.empty());
        break;
      case 7:
        (void)::rename(at(file).c_str(), at(join(other, "moved")).c_str());
        break;
      case 8:
        if (!other.starts_with(dir)) (void)::rename(at(dir).c_str(), at(join(other, "mv")).c_str());
        break;
      case 9:
        move_across(dir);
        break;
      case 10:
        (void)::symlink(number(2) ? "f0" : "../nowhere", at(fresh).c_str());
        break;
      case 11:
        shell("mkdir -p '" + at(fresh) + "/x/y' && echo z > '" + at(fresh) + "/x/y/z'", true);
        break;
      case 12:
        (void)::unlink(at(file).c_str()), (void)::mkdir(at(file).c_str(), 0700);
        break;
      default:
        (void)::link(at(file).c_str(), at(join(other, "hard")).c_str());
        break;
    }
  }

 private:
  std::string at(const std::string& rel) const {
    return rel.empty() ? work_.path() : work_.file(rel);
  }
  static std::string join(const std::string& dir, const std::string& name) {
    return dir.empty() ? name : dir + "/" + name;
  }
  size_t number(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(random_); }
  std::string pick(const std::vector<std::string>& from) { return from[number(from.size())]; }
  void append(const std::string& rel) { std::ofstream(at(rel), std::ios::app) << "more\n"; }
  static void shell(const std::string& command, bool wanted) {
    if (wanted) (void)std::system(command.c_str());
  }
  // A folder out of the tree, or the one out there back in.
  void move_across(const std::string& dir) {
    std::string parked = outside_.file("parked");
    if (::access(parked.c_str(), F_OK) == 0) {
      (void)::rename(parked.c_str(), at(join(dir, "back")).c_str());
    } else if (!dir.empty()) {
      (void)::rename(at(dir).c_str(), parked.c_str());
    }
  }

  const TempDir& work_;
  const TempDir& outside_;
  std::mt19937 random_;
};

void expect_same_states(const TreeIndex& scoped, const TreeIndex& walked, int round) {
  for (const auto& [rel, entry] : walked) {
    auto it = scoped.find(rel);
    ASSERT_NE(it, scoped.end()) << "round " << round << ": the events missed " << rel;
    EXPECT_TRUE(it->second.state.same_as(entry.state))
        << "round " << round << ": " << rel << " kept as " << kind_name(it->second.state.kind)
        << " " << it->second.state.blob << ", now " << kind_name(entry.state.kind) << " "
        << entry.state.blob;
  }
  for (const auto& [rel, entry] : scoped) {
    EXPECT_TRUE(walked.contains(rel)) << "round " << round << ": kept " << rel << ", now gone";
  }
}

TEST(ChangeWatch, EventsFindWhatAWalkFinds) {
  TempDir store_dir, work, outside;
  BlobStore store(store_dir.path());
  work.write("f0", "0\n");
  work.write("d0/f1", "1\n");
  work.write("d0/d1/f2", "2\n");
  work.write("node_modules/pkg/x.js", "x\n");
  auto watch = ChangeWatch::open();
  ASSERT_TRUE(watch.has_value()) << watch.error().message;
  ScanOptions options{.store = &store, .max_bytes = 1 << 20, .ignored = {"node_modules"}};
  options.on_dir = [&](int dir, const std::string& rel) { return watch->add(dir, rel); };
  TreeIndex index;
  ASSERT_TRUE(refresh_index(work.path(), index, {}, options).has_value());

  const char* seed_text = std::getenv("HERMES_CHURN_SEED");
  uint32_t seed = seed_text != nullptr ? static_cast<uint32_t>(std::atoi(seed_text)) : 36;
  Churn churn(work, outside, seed);
  for (int round = 0; round < 150; ++round) {
    for (int k = round % 5; k >= 0; --k) churn.step(index);
    WatchedChanges seen = watch->take();
    ASSERT_FALSE(seen.lost);
    ScanScope scope{.whole = false, .entries = seen.entries, .subtrees = seen.subtrees};
    auto scoped = refresh_index(work.path(), index, scope, options);
    ASSERT_TRUE(scoped.has_value()) << scoped.error().message;
    TreeIndex walked;
    ScanOptions plain = options;
    plain.on_dir = nullptr;
    ASSERT_TRUE(refresh_index(work.path(), walked, {}, plain).has_value());
    expect_same_states(index, walked, round);
    if (HasFailure()) return;
  }
}

TEST(ChangeWatch, AnOverflowedQueueSaysEventsWereLost) {
  TempDir work;
  work.write("a", "a");
  work.write("b", "b");
  auto watch = ChangeWatch::open();
  ASSERT_TRUE(watch.has_value());
  int dir = ::open(work.path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  ASSERT_TRUE(watch->add(dir, "").has_value());
  ::close(dir);
  long limit = 16384;
  std::ifstream("/proc/sys/fs/inotify/max_queued_events") >> limit;
  // Alternating names: the kernel folds only repeats of the last event.
  for (long i = 0; i <= limit; ++i) {
    ASSERT_EQ(::utimensat(AT_FDCWD, work.file(i % 2 ? "a" : "b").c_str(), nullptr, 0), 0);
  }
  EXPECT_TRUE(watch->take().lost);
  EXPECT_FALSE(watch->take().lost);  // the next batch starts afresh
}

// A raw inotify watch that counts opens of one directory: a walk opens
// every directory, a look by events only what they name.
class OpenCounter {
 public:
  explicit OpenCounter(const std::string& dir) : fd_(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) {
    ::inotify_add_watch(fd_, dir.c_str(), IN_OPEN | IN_ONLYDIR);
  }
  ~OpenCounter() { ::close(fd_); }
  int opens() {
    alignas(inotify_event) char buf[4096];
    int count = 0;
    for (ssize_t n; (n = ::read(fd_, buf, sizeof buf)) > 0;) {
      for (ssize_t at = 0; at < n; ++count) {
        at += static_cast<ssize_t>(sizeof(inotify_event) +
                                   reinterpret_cast<inotify_event*>(buf + at)->len);
      }
    }
    return count;
  }

 private:
  int fd_;
};

int opens_during_a_shell_call(bool watch) {
  TempDir home, work;
  work.write("far/away/deep/file.txt", "untouched\n");
  work.write("near.txt", "0\n");
  Checkpoints checkpoints(home.path() + "/checkpoints");
  Settings settings;
  settings.watch = watch;
  CallInfo shell{.root = work.path(), .tool = "terminal", .shell = true};
  auto arm = checkpoints.begin(shell, settings);
  if (!arm || !checkpoints.finish(*arm, settings)) return -1;
  OpenCounter counter(work.file("far/away/deep"));
  auto ticket = checkpoints.begin(shell, settings);
  work.write("near.txt", "1\n");
  if (!ticket || !checkpoints.finish(*ticket, settings)) return -1;
  auto all = checkpoints.list(work.path());
  if (!all || all->back().after.size() != 1 || !all->back().after.contains("near.txt")) return -1;
  return counter.opens();
}

TEST(ChangeWatch, AShellCallReadsNoDirectoryItsEventsDoNotName) {
  EXPECT_EQ(opens_during_a_shell_call(true), 0);
  // The walk it replaces opens it (before the call and after; the kernel
  // folds the second event into the first when nothing came between).
  EXPECT_GE(opens_during_a_shell_call(false), 1);
}

TEST(ChangeWatch, ChangesBetweenCallsStayTheBaselineNotTheNextCalls) {
  TempDir home, work;
  work.write("hand.txt", "agent\n");
  work.write("d/shell.txt", "0\n");
  Checkpoints checkpoints(home.path() + "/checkpoints");
  Settings settings;
  CallInfo shell{.root = work.path(), .tool = "terminal", .shell = true};
  auto arm = checkpoints.begin(shell, settings);
  ASSERT_TRUE(arm && checkpoints.finish(*arm, settings));
  work.write("hand.txt", "by hand, between calls\n");
  ASSERT_EQ(std::system(("mkdir -p '" + work.file("made/by/hand") + "'").c_str()), 0);
  auto ticket = checkpoints.begin(shell, settings);
  ASSERT_TRUE(ticket.has_value());
  work.write("d/shell.txt", "1\n");
  ASSERT_TRUE(checkpoints.finish(*ticket, settings));
  auto all = checkpoints.list(work.path());
  ASSERT_TRUE(all.has_value());
  EXPECT_EQ(all->back().after.size(), 1u);
  EXPECT_TRUE(all->back().after.contains("d/shell.txt"));
  auto restored = checkpoints.restore({.root = work.path(), .id = ticket->id}, settings);
  ASSERT_TRUE(restored.has_value());
  EXPECT_EQ(work.read("d/shell.txt"), "0\n");
  EXPECT_EQ(work.read("hand.txt"), "by hand, between calls\n");
}

}  // namespace
}  // namespace hermes::checkpoint
