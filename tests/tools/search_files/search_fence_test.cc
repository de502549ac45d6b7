// SPDX-License-Identifier: MIT
// search_files under a workspace root, attacked as a hostile repository
// would: a folder inside the root swapped, while searches run, with a link
// to a folder outside that holds a marker, or with a link to the Hermes
// home's credential stores inside the root. The server checks the path,
// then hands the engine a path string; only the engine's read-only Landlock
// fence stops the engine from reading the swapped-in folder
// (docs/containment.md, Searches). Built portable, the same tests drive the
// shell search path of the local backend, whose engine is fenced the same.
#include "proc/write_fence.h"
#include "tools/search_files/search_harness.h"
#include "tools/search_files/search_process.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <thread>

namespace hermes::testing {
namespace {

constexpr const char* kOutsideMarker = "hermes-outside-marker";

// Keeps swapping `root/d` (a folder) with `root/d.swap` (a link to
// `target`) until destroyed.
class Swapper {
 public:
  Swapper(const TempDir& root, const std::string& target) : root_(root) {
    root.write("d/inside.txt", "hermes-inside\n");
    std::filesystem::create_directory_symlink(target, root.file("d.swap"));
    thread_ = std::thread([this] {
      std::string a = root_.file("d"), b = root_.file("d.swap");
      // A swap every ~100 µs: each state lasts long enough for the
      // server's check to see the folder, and flips often during the
      // millisecond it takes to start the engine.
      while (!stop_.load()) {
        ::renameat2(AT_FDCWD, a.c_str(), AT_FDCWD, b.c_str(), RENAME_EXCHANGE);
        std::this_thread::sleep_for(std::chrono::microseconds(100));
      }
    });
  }
  ~Swapper() {
    stop_.store(true);
    thread_.join();
  }

 private:
  const TempDir& root_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

struct RaceCount {
  int searches = 0;
  int found_inside = 0;  // searches that found the marker inside the root
  int escapes = 0;       // results that showed the marker from outside the root
};

// Searches `d` for the marker up to `tries` times, stopping at the first
// escape when `stop_at_escape`.
RaceCount race(SearchHarness& h, int tries, bool stop_at_escape) {
  TempDir outside;
  outside.write("secret.txt", std::string(kOutsideMarker) + "\n");
  Swapper swapper(h.tree(), outside.path());
  RaceCount count;
  for (; count.searches < tries; ++count.searches) {
    // Alternate so the loop guard never blocks a repeated search.
    Json out = h.call({{"pattern", "hermes-"}, {"path", "d"}, {"limit", 10 + count.searches % 2}});
    std::string text = out.dump();
    if (text.find("hermes-inside") != std::string::npos) ++count.found_inside;
    if (text.find(kOutsideMarker) == std::string::npos) continue;
    ++count.escapes;
    if (stop_at_escape) break;
  }
  return count;
}

class SearchFence : public ::testing::Test {
 protected:
  void SetUp() override {
    if (proc::landlock_support().abi == 0) GTEST_SKIP() << proc::landlock_support().why_not;
  }
};

TEST_F(SearchFence, ASwapRaceNeverReadsOutsideTheRoot) {
  SearchHarness h(/*contained=*/true);
  RaceCount count = race(h, 300, /*stop_at_escape=*/false);
  EXPECT_EQ(count.escapes, 0) << "of " << count.searches << " searches";
  EXPECT_GT(count.found_inside, 0);  // the searches do run
}

// The same race without the fence: proof that the race is real and that
// the fence is what holds.
TEST_F(SearchFence, WithoutTheFenceTheRaceIsSeenToEscape) {
  ::setenv("HERMES_LANDLOCK", "off", 1);
  SearchHarness h(/*contained=*/true);
  RaceCount count = race(h, 2000, /*stop_at_escape=*/true);
  ::unsetenv("HERMES_LANDLOCK");
  EXPECT_EQ(count.escapes, 1) << "no escape in " << count.searches << " searches";
}

// The Hermes home inside the root (a root at $HOME): its credential stores
// are on the read denylist, and a folder swapped for a link to the home
// while searches run would show them under names the result filter passes.
// The fence keeps the engine from reading them by any path.
constexpr const char* kStoreMarker = "hermes-store-marker";

RaceCount race_into_home(SearchHarness& h, int tries, bool stop_at_escape) {
  h.tree().write(".hermes/auth.json", std::string(kStoreMarker) + " auth\n");
  h.tree().write(".hermes/mcp-tokens/server.json", std::string(kStoreMarker) + " token\n");
  h.tree().write(".hermes/notes.md", "hermes-notes\n");
  Swapper swapper(h.tree(), h.tree().file(".hermes"));
  RaceCount count;
  for (; count.searches < tries; ++count.searches) {
    Json out = h.call({{"pattern", "hermes-"}, {"path", "d"}, {"limit", 10 + count.searches % 2}});
    std::string text = out.dump();
    if (text.find("hermes-inside") != std::string::npos) ++count.found_inside;
    if (text.find(kStoreMarker) == std::string::npos) continue;
    ++count.escapes;
    if (stop_at_escape) break;
  }
  return count;
}

TEST_F(SearchFence, ASwapRaceNeverReadsTheDeniedStoresInsideTheRoot) {
  SearchHarness h(/*contained=*/true, /*home_in_tree=*/true);
  RaceCount count = race_into_home(h, 300, /*stop_at_escape=*/false);
  EXPECT_EQ(count.escapes, 0) << "of " << count.searches << " searches";
  EXPECT_GT(count.found_inside, 0);
}

// Without the fence only the result filter stands, and the race beats it.
TEST_F(SearchFence, WithoutTheFenceTheDeniedStoresAreSeenToLeak) {
  ::setenv("HERMES_LANDLOCK", "off", 1);
  SearchHarness h(/*contained=*/true, /*home_in_tree=*/true);
  RaceCount count = race_into_home(h, 2000, /*stop_at_escape=*/true);
  ::unsetenv("HERMES_LANDLOCK");
  EXPECT_EQ(count.escapes, 1) << "no leak in " << count.searches << " searches";
}

// A search path that is a file, swapped for a link to a `.env` file while
// searches run: the filter judges the name printed (`x.txt`), so only the
// fence, bound to the file the server checked, keeps the secret unread.
constexpr const char* kEnvMarker = "hermes-env-marker";

RaceCount race_file_root(SearchHarness& h, int tries, bool stop_at_escape) {
  h.tree().write(".env", std::string(kEnvMarker) + "\n");
  h.tree().write("x.txt", "hermes-inside\n");
  std::filesystem::create_symlink(h.tree().file(".env"), h.tree().file("x.swap"));
  std::atomic<bool> stop{false};
  std::thread swapper([&] {
    std::string a = h.tree().file("x.txt"), b = h.tree().file("x.swap");
    while (!stop.load()) {
      ::renameat2(AT_FDCWD, a.c_str(), AT_FDCWD, b.c_str(), RENAME_EXCHANGE);
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
  });
  RaceCount count;
  for (; count.searches < tries; ++count.searches) {
    Json out =
        h.call({{"pattern", "hermes-"}, {"path", "x.txt"}, {"limit", 10 + count.searches % 2}});
    std::string text = out.dump();
    if (text.find("hermes-inside") != std::string::npos) ++count.found_inside;
    if (text.find(kEnvMarker) == std::string::npos) continue;
    ++count.escapes;
    if (stop_at_escape) break;
  }
  stop.store(true);
  swapper.join();
  return count;
}

TEST_F(SearchFence, AFileRootSwappedForALinkToAnEnvFileIsNeverRead) {
  SearchHarness h(/*contained=*/true);
  RaceCount count = race_file_root(h, 300, /*stop_at_escape=*/false);
  EXPECT_EQ(count.escapes, 0) << "of " << count.searches << " searches";
  EXPECT_GT(count.found_inside, 0);
}

TEST_F(SearchFence, WithoutTheFenceAFileRootSwapIsSeenToLeak) {
  ::setenv("HERMES_LANDLOCK", "off", 1);
  SearchHarness h(/*contained=*/true);
  RaceCount count = race_file_root(h, 2000, /*stop_at_escape=*/true);
  ::unsetenv("HERMES_LANDLOCK");
  EXPECT_EQ(count.escapes, 1) << "no leak in " << count.searches << " searches";
}

TEST_F(SearchFence, SearchesInsideTheRootStillWork) {
  SearchHarness h(/*contained=*/true);
  h.tree().write("sub/a.txt", "needle here\n");
  h.tree().write("sub/ignored.log", "needle ignored\n");
  h.tree().write(".gitignore", "*.log\n");
  ::mkdir(h.tree().file(".git").c_str(), 0755);
  Json content = h.call({{"pattern", "needle"}, {"path", "sub"}});
  EXPECT_EQ(content["total_count"], 1) << content.dump();
  Json files = h.call({{"pattern", "*.txt"}, {"target", "files"}});
  EXPECT_EQ(files["total_count"], 1) << files.dump();
}

TEST_F(SearchFence, AFolderLinkedFromOutsideIsRefusedBeforeTheEngineRuns) {
  SearchHarness h(/*contained=*/true);
  TempDir outside;
  outside.write("secret.txt", std::string(kOutsideMarker) + "\n");
  std::filesystem::create_directory_symlink(outside.path(), h.tree().file("link"));
  Json out = h.call({{"pattern", "hermes-"}, {"path", "link"}});
  EXPECT_EQ(out.dump().find(kOutsideMarker), std::string::npos) << out.dump();
  EXPECT_TRUE(out.contains("error")) << out.dump();
}

// The fence at the engine's level: nothing outside the root is read, but
// the ignore files of the root's ancestors are (a root inside a repository).
std::vector<std::string> fenced_rg(const std::string& root, const std::string& target,
                                   const std::vector<std::string>& excluded = {}) {
  std::vector<std::string> records;
  search::SpawnSpec spec{
      .argv = {search::find_executable("rg"), "--no-config", "-l", "needle", "--", target},
      .fence_root = root,
      .fence_excluded = excluded};
  auto run = search::run_records(spec, [&](std::string_view r) {
    records.emplace_back(r);
    return true;
  });
  EXPECT_TRUE(run.has_value()) << run.error().message;
  return records;
}

TEST_F(SearchFence, TheEngineReadsOnlyBeneathTheRootAndItsAncestorsIgnoreFiles) {
  if (search::find_executable("rg").empty()) GTEST_SKIP() << "no rg";
  TempDir repo, outside;
  repo.write(".gitignore", "*.log\n");
  ::mkdir(repo.file(".git").c_str(), 0755);
  repo.write("sub/a.txt", "needle\n");
  repo.write("sub/b.log", "needle\n");
  outside.write("c.txt", "needle\n");
  EXPECT_EQ(fenced_rg(repo.file("sub"), repo.file("sub")),
            std::vector<std::string>{repo.file("sub/a.txt")});
  EXPECT_TRUE(fenced_rg(repo.file("sub"), outside.path()).empty());
  EXPECT_EQ(fenced_rg("", outside.path()), std::vector<std::string>{outside.file("c.txt")});
}

// Excluded paths beneath the root: their files are read by no path (the
// engine follows a link it is given), everything around them still is,
// and a file made in a folder on the way after the fence was built is not.
TEST_F(SearchFence, TheEngineReadsNothingInAnExcludedPathByAnyPath) {
  if (search::find_executable("rg").empty()) GTEST_SKIP() << "no rg";
  TempDir root;
  root.write("a.txt", "needle\n");
  root.write("home/.hermes/auth.json", "needle\n");
  root.write("home/.hermes/mcp-tokens/t.json", "needle\n");
  root.write("home/.hermes/notes.md", "needle\n");
  root.write("home/project/b.txt", "needle\n");
  std::filesystem::create_directory_symlink(root.file("home/.hermes"), root.file("link"));
  const std::vector<std::string> excluded = {root.file("home/.hermes/auth.json"),
                                             root.file("home/.hermes/mcp-tokens"),
                                             "/elsewhere/not/beneath"};
  std::vector<std::string> found = fenced_rg(root.path(), root.file("link"), excluded);
  EXPECT_EQ(found, std::vector<std::string>{root.file("link/notes.md")});
  found = fenced_rg(root.path(), root.file("link/mcp-tokens/t.json"), excluded);
  EXPECT_TRUE(found.empty());
  found = fenced_rg(root.path(), root.path(), excluded);
  std::sort(found.begin(), found.end());
  EXPECT_EQ(found, (std::vector<std::string>{root.file("a.txt"), root.file("home/project/b.txt")}));
}

}  // namespace
}  // namespace hermes::testing
