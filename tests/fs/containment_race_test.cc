// SPDX-License-Identifier: MIT
// Races an attacker runs against the file tools: a directory inside the
// root swapped with a link to outside while read_file / write_file / V4A
// Add run (zero escapes, zero temp files left); eight server processes
// patching one file (zero lost edits); kill -9 during write_file (target
// never torn, no temp file left once the next write has run).
#include "fs/beneath.h"
#include "fs/cli_child.h"
#include "json/json.h"
#include "testutil/temp_dir.h"
#include "testutil/tool_session.h"
#include "tools/patch/patch.h"
#include "tools/read_file/read_file.h"
#include "tools/write_file/write_file.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <linux/fs.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

namespace hermes {
namespace testing {
namespace {

namespace fs = std::filesystem;

int count_temps(const std::string& dir) {
  int n = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->path().filename().string().starts_with(".hermes-tmp")) ++n;
  }
  return n;
}

std::string slurp(const std::string& path) {
  std::stringstream text;
  text << std::ifstream(path).rdbuf();
  return text.str();
}

// The world of the swap race, on tmpfs when there is one (thousands of
// fsyncs would otherwise measure the disk, not the race).
struct SwapWorld {
  SwapWorld() {
    if (fs::is_directory("/dev/shm")) ::setenv("TMPDIR", "/dev/shm", 1);
    session = std::make_unique<ToolSession>(
        [](const std::string& work) { return "security:\n  workspace_root: " + work + "\n"; });
    ::unsetenv("TMPDIR");
    for (auto reg :
         {read_file::register_read_file, write_file::register_write_file, patch::register_patch})
      reg(session->registry());
    root = session->work().path();
    fs::create_directory(root + "/box");
    std::ofstream(root + "/box/f.txt") << "inside\n";
    std::ofstream(outside.file("f.txt")) << "CANARY\n";
    fs::create_directory_symlink(outside.path(), root + "/spare");
  }
  // box <-> spare: box is a directory inside, then a link to outside.
  void swap_until(const std::atomic<bool>& stop) {
    const std::string box = root + "/box", spare = root + "/spare";
    while (!stop) ::renameat2(AT_FDCWD, box.c_str(), AT_FDCWD, spare.c_str(), RENAME_EXCHANGE);
  }

  TempDir outside;
  std::unique_ptr<ToolSession> session;
  std::string root;
};

struct RaceCounts {
  int ok[3] = {0, 0, 0};
  int escapes = 0;
  int refused = 0;  // calls that met the link (outside the root, or swapped in mid-call)
};

void race_once(SwapWorld& world, int i, RaceCounts& counts) {
  const std::string box = world.root + "/box/";
  Json out;
  switch (i % 3) {
    case 0:  // a distinct limit per read, so no read is answered from the dedup cache
      out = world.session->call("read_file",
                                {{"path", box + "f.txt"}, {"limit", 1 + (i / 3) % 1999}});
      if (out.dump().find("CANARY") != std::string::npos) ++counts.escapes;
      break;
    case 1:
      out = world.session->call(
          "write_file", {{"path", box + "w" + std::to_string(i) + ".txt"}, {"content", "x\n"}});
      break;
    default:
      out = world.session->call(
          "patch", {{"mode", "patch"},
                    {"patch", "*** Begin Patch\n*** Add File: " + box + "a" + std::to_string(i) +
                                  ".txt\n+x\n*** End Patch\n"}});
  }
  if (!out.contains("error"))
    ++counts.ok[i % 3];
  else
    ++counts.refused;
}

// Each kind of call both succeeded and was refused at least once.
bool race_met_both_states(const RaceCounts& counts) {
  return counts.ok[0] > 0 && counts.ok[1] > 0 && counts.ok[2] > 0 && counts.refused > 0;
}

// `iterations` calls at least; more, for up to 20 s, until each kind has
// met the directory in place (on a loaded machine the swapper may sit
// descheduled in one state through a whole run).
void run_swap_race(int iterations) {
  SwapWorld world;
  std::atomic<bool> stop{false};
  std::thread swapper([&] { world.swap_until(stop); });
  RaceCounts counts;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  for (int i = 0; i < iterations ||
                  (!race_met_both_states(counts) && std::chrono::steady_clock::now() < give_up);
       ++i) {
    race_once(world, i, counts);
  }
  stop = true;
  swapper.join();
  EXPECT_EQ(counts.escapes, 0) << "reads that returned the outside file";
  std::vector<std::string> outside_entries;
  for (const auto& entry : fs::directory_iterator(world.outside.path()))
    outside_entries.push_back(entry.path().filename());
  EXPECT_EQ(outside_entries, std::vector<std::string>{"f.txt"}) << "files written outside the root";
  EXPECT_EQ(slurp(world.outside.file("f.txt")), "CANARY\n");
  EXPECT_EQ(count_temps(world.root) + count_temps(world.outside.path()), 0);
  // Not vacuous: each kind of call also succeeded while the directory was in place.
  for (int kind = 0; kind < 3; ++kind) EXPECT_GT(counts.ok[kind], 0) << "kind " << kind;
  EXPECT_GT(counts.refused, 0) << "the swap never met a call: the race did not run";
  std::printf("swap race: %d reads, %d writes, %d adds succeeded; %d refused; 0 escapes\n",
              counts.ok[0], counts.ok[1], counts.ok[2], counts.refused);
  ::testing::Test::RecordProperty("reads_ok", counts.ok[0]);
  ::testing::Test::RecordProperty("writes_ok", counts.ok[1]);
  ::testing::Test::RecordProperty("adds_ok", counts.ok[2]);
}

TEST(SwapRace, FiveThousandCallsAgainstADirectorySwappedWithALinkNeverEscape) {
  run_swap_race(5001);
}

TEST(SwapRace, TheComponentWalkHoldsToo) {
  hermes::fs::set_walk_mode(hermes::fs::WalkMode::kComponents);
  run_swap_race(1500);
  hermes::fs::set_walk_mode(hermes::fs::WalkMode::kAuto);
}

// Eight `hermes-tools call -` processes, each making its own edits to one
// shared file: every edit reported as applied is in the final file.
TEST(ConcurrentPatch, EightProcessesLoseNoEdit) {
  constexpr int kProcs = 8, kEdits = 25;
  TempDir dir;
  const std::string file = dir.file("shared.txt");
  {
    std::ofstream text(file);
    for (int p = 0; p < kProcs; ++p)
      for (int k = 0; k < kEdits; ++k) text << "p" << p << "-e" << k << ": old\n";
  }
  std::vector<pid_t> pids;
  for (int p = 0; p < kProcs; ++p) {
    CliRun run{{"call", "-"}, {}, dir.path(), ""};
    for (int k = 0; k < kEdits; ++k) {
      const std::string key = "p" + std::to_string(p) + "-e" + std::to_string(k);
      run.input +=
          Json{{"tool", "patch"},
               {"arguments",
                {{"path", file}, {"old_string", key + ": old"}, {"new_string", key + ": new"}}}}
              .dump() +
          "\n";
    }
    pids.push_back(start_cli(run, dir.file("out" + std::to_string(p))));
  }
  for (pid_t pid : pids) ::waitpid(pid, nullptr, 0);
  int reported = 0;
  for (int p = 0; p < kProcs; ++p) {
    std::istringstream lines(slurp(dir.file("out" + std::to_string(p))));
    for (std::string line; std::getline(lines, line);) {
      Json out = Json::parse(line, nullptr, false);
      if (out.value("success", false)) ++reported;
      EXPECT_EQ(line.find("verification failed"), std::string::npos) << line;
    }
  }
  const std::string final_text = slurp(file);
  int applied = 0;
  for (size_t at = 0; (at = final_text.find(": new\n", at)) != std::string::npos; ++at) ++applied;
  EXPECT_EQ(reported, kProcs * kEdits);
  EXPECT_EQ(applied, reported) << "edits reported as applied but missing from the file";
}

// kill -9 at random moments of a server rewriting one file.
TEST(KilledWriter, SigkillDuringWriteFileNeverTearsTheTargetNorLeavesTemps) {
  TempDir dir;
  const std::string target = dir.file("t.txt");
  std::string a, b;
  for (int i = 0; i < 40; ++i)
    a += std::string(1000, 'a') + "\n", b += std::string(1000, 'b') + "\n";
  std::ofstream(target) << a;
  std::mt19937 rng(7);
  for (int round = 0; round < 25; ++round) {
    CliRun run{{"call", "-"},
               {},
               dir.path(),
               Json{{"tool", "read_file"}, {"arguments", {{"path", target}}}}.dump() + "\n"};
    for (int i = 0; i < 400; ++i) {
      run.input += Json{{"tool", "write_file"},
                        {"arguments", {{"path", target}, {"content", i % 2 ? a : b}}}}
                       .dump() +
                   "\n";
    }
    pid_t pid = start_cli(run, dir.file("out"));
    ::usleep(20000 + rng() % 60000);
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    const std::string now = slurp(target);
    ASSERT_TRUE(now == a || now == b) << "torn target of " << now.size() << " bytes";
  }
  std::printf("kill -9: %d temp files left by 25 kills before the next write\n",
              count_temps(dir.path()));
  CliRun last{
      {"call", "-"},
      {},
      dir.path(),
      Json{{"tool", "read_file"}, {"arguments", {{"path", target}}}}.dump() + "\n" +
          Json{{"tool", "write_file"}, {"arguments", {{"path", target}, {"content", a}}}}.dump() +
          "\n"};
  const std::string out = run_cli(last);
  EXPECT_NE(out.find("\"verified\":true"), std::string::npos) << out;
  EXPECT_EQ(slurp(target), a);
  EXPECT_EQ(count_temps(dir.path()), 0);
}

}  // namespace
}  // namespace testing
}  // namespace hermes
