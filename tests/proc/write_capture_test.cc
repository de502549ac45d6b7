// SPDX-License-Identifier: MIT
// The write capture as a command would meet it: every way a shell changes
// or removes a file keeps the old bytes, under the name of the state the
// file was in; reads, new files, files outside the workspace and files
// over the cap keep nothing; and the command's own results are unchanged.
#include "proc/write_capture.h"

#include "proc/run.h"
#include "proc/spawn.h"
#include "testutil/temp_dir.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace hermes::proc {
namespace {

using hermes::testing::TempDir;
namespace stdfs = std::filesystem;

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void put(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

class WriteCaptureTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!write_capture_available(false)) GTEST_SKIP() << "no seccomp user notification here";
    root_ = tmp_.path() + "/ws";
    kept_ = tmp_.path() + "/kept";
    stdfs::create_directories(root_);
    stdfs::create_directories(kept_);
    put(tmp_.path() + "/looks", std::string(8, '\0'));
    struct ::stat st {};
    ASSERT_EQ(::stat(root_.c_str(), &st), 0);
    capture_.dir.reset(::open(kept_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    capture_.looks.reset(::open((tmp_.path() + "/looks").c_str(), O_RDWR | O_CLOEXEC));
    capture_.root = root_;
    capture_.root_dev = st.st_dev;
    capture_.root_ino = st.st_ino;
    capture_.max_bytes = 1 << 20;
  }

  // The capture name a file has now.
  std::string name_now(const std::string& rel) {
    struct ::stat st {};
    EXPECT_EQ(::stat((root_ + "/" + rel).c_str(), &st), 0) << rel;
    return captured_state(st.st_ino, static_cast<uint64_t>(st.st_size),
                          st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec);
  }

  std::string run(const std::string& script) {
    auto child = spawn({.argv = {"bash", "-c", script}, .cwd = root_, .write_capture = &capture_});
    EXPECT_TRUE(child.has_value()) << child.error().message;
    std::string out;
    RunOutcome r = run_bounded(*child, {}, {}, [&](std::string_view b) { out += b; });
    EXPECT_EQ(r.status.code, 0) << out;
    return out;
  }

  // Each capture's state (its name less the look) and bytes.
  std::map<std::string, std::string> kept() {
    std::map<std::string, std::string> out;
    for (const auto& e : stdfs::directory_iterator(kept_)) {
      std::string name = e.path().filename();
      out[name.substr(name.find('-') + 1)] = slurp(e.path());
    }
    return out;
  }

  TempDir tmp_;
  std::string root_, kept_;
  WriteCapture capture_;
};

TEST_F(WriteCaptureTest, EveryWayAShellChangesAFileKeepsItsOldBytes) {
  const char* kinds[] = {"sed", "redirect", "append", "rm", "mv_over", "truncate", "python", "cp"};
  std::map<std::string, std::string> want;
  for (const char* k : kinds) {
    put(root_ + "/" + k, std::string("old ") + k + "\n");
    want[name_now(k)] = std::string("old ") + k + "\n";
  }
  put(root_ + "/source", "new\n");
  std::string out =
      run("sed -i s/old/new/ sed && echo x > redirect && echo y >> append && rm rm && "
          "mv source mv_over && truncate -s 0 truncate && "
          "python3 -c \"open('python','w').write('p')\" && cp /etc/hostname cp && cat sed");
  EXPECT_EQ(out, "new sed\n");
  EXPECT_EQ(kept(), want);
  EXPECT_FALSE(stdfs::exists(root_ + "/rm"));
  EXPECT_EQ(slurp(root_ + "/mv_over"), "new\n");
}

// A remove that fails leaves the file with the capture as a second name: a
// write after it must not change what was kept.
TEST_F(WriteCaptureTest, AFailedRemoveThenAWriteKeepsTheOldBytes) {
  put(root_ + "/important", "old\n");
  std::string name = name_now("important");
  run("python3 -c \"import os\ntry: os.rename('nope', 'important')\nexcept OSError: pass\" && "
      "echo new > important");
  EXPECT_EQ(slurp(root_ + "/important"), "new\n");
  EXPECT_EQ(kept(), (std::map<std::string, std::string>{{name, "old\n"}}));
}

TEST_F(WriteCaptureTest, AFileMovedOutOfTheWorkspaceIsKept) {
  put(root_ + "/leaving", "bye\n");
  put(root_ + "/staying", "hi\n");
  std::string name = name_now("leaving");
  run("mv leaving ../gone && mv staying stayed");
  EXPECT_EQ(kept(), (std::map<std::string, std::string>{{name, "bye\n"}}));
}

TEST_F(WriteCaptureTest, AWriteThroughProcSelfIsTheProcesssOwn) {
  put(root_ + "/g", "g\n");
  std::string name = name_now("g");
  run("exec 3<g; echo x > /proc/self/fd/3");
  EXPECT_EQ(slurp(root_ + "/g"), "x\n");
  EXPECT_EQ(kept(), (std::map<std::string, std::string>{{name, "g\n"}}));
}

TEST_F(WriteCaptureTest, ALinkToAFileElsewhereKeepsNothing) {
  put(tmp_.path() + "/secret", "s\n");
  run("ln -s ../secret link && echo x >> link");
  EXPECT_TRUE(kept().empty());
}

TEST_F(WriteCaptureTest, ReadsNewFilesIgnoredFoldersAndFilesElsewhereKeepNothing) {
  capture_.ignored = {"build", ".git"};
  stdfs::create_directories(root_ + "/build/obj");
  stdfs::create_directories(root_ + "/.git");
  put(root_ + "/build/obj/a.o", "object\n");
  put(root_ + "/.git/index", "index\n");
  put(root_ + "/read", "r\n");
  put(tmp_.path() + "/outside", "o\n");
  std::string big(capture_.max_bytes + 1, 'b');
  put(root_ + "/big", big);
  run("cat read >/dev/null && echo n > new && echo o > ../outside && echo b >> big && "
      "mkdir d && rmdir d && ln -s read link && rm link && echo o > build/obj/a.o && "
      "echo i > .git/index && rm build/obj/a.o");
  EXPECT_TRUE(kept().empty());
}

TEST_F(WriteCaptureTest, AFileIsKeptOncePerLook) {
  put(root_ + "/log", "start\n");
  std::string first = name_now("log");
  run("for i in 1 2 3 4 5; do echo $i >> log; done");
  EXPECT_EQ(kept(), (std::map<std::string, std::string>{{first, "start\n"}}));
  // A look later: the state it saw is kept again, once.
  uint64_t look = 1;
  ASSERT_EQ(::pwrite(capture_.looks.get(), &look, sizeof look, 0), 8);
  std::string second = name_now("log");
  run("echo 6 >> log; echo 7 >> log");
  EXPECT_EQ(kept().size(), 2u);
  EXPECT_EQ(kept()[second], "start\n1\n2\n3\n4\n5\n");
}

TEST_F(WriteCaptureTest, AWriteThroughALinkKeepsTheFileItReaches) {
  put(root_ + "/target", "t\n");
  std::string name = name_now("target");
  run("ln -s target link && echo u > link");
  EXPECT_EQ(kept(), (std::map<std::string, std::string>{{name, "t\n"}}));
}

TEST_F(WriteCaptureTest, ABackgroundProcessIsServedAfterTheCommandEnds) {
  put(root_ + "/late", "before\n");
  std::string name = name_now("late");
  auto child = spawn({.argv = {"bash", "-c", "(sleep 0.3; echo after > late) & echo started"},
                      .cwd = root_,
                      .write_capture = &capture_});
  ASSERT_TRUE(child.has_value());
  std::string out;
  run_bounded(*child, {}, {}, [&](std::string_view b) { out += b; });
  for (int i = 0; i < 100 && slurp(root_ + "/late") != "after\n"; ++i) ::usleep(20'000);
  EXPECT_EQ(slurp(root_ + "/late"), "after\n");
  EXPECT_EQ(kept()[name], "before\n");
}

}  // namespace
}  // namespace hermes::proc
