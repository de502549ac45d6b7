// SPDX-License-Identifier: MIT
// The Landlock write fence as a child sees it: writes beneath the allowed
// paths work, every other kind of change elsewhere is refused, reads are not
// fenced, and the spawning process itself stays unrestricted.
#include "proc/write_fence.h"

#include "proc/run.h"
#include "proc/spawn.h"
#include "testutil/temp_dir.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <stdlib.h>
#include <sys/resource.h>

#include <filesystem>
#include <fstream>

namespace hermes::proc {
namespace {

namespace fs = std::filesystem;
using hermes::testing::TempDir;

struct Shell {
  int code = 0;
  std::string output;
};

Shell run_fenced(const WriteFence& fence, const std::string& script,
                 TerminalMode terminal = TerminalMode::kPipe) {
  auto child =
      spawn({.argv = {"bash", "-c", script}, .terminal = terminal, .write_fence_fd = fence.fd()});
  EXPECT_TRUE(child.has_value()) << child.error().message;
  if (!child) return {};
  Shell out;
  RunOutcome r = run_bounded(*child, {}, {}, [&](std::string_view b) { out.output += b; });
  out.code = r.status.code;
  return out;
}

class WriteFenceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (landlock_support().abi == 0) GTEST_SKIP() << landlock_support().why_not;
    inside_ = base_.file("inside");
    outside_ = base_.file("outside");
    fs::create_directories(inside_);
    fs::create_directories(outside_);
    base_.write("outside/existing", "original\n");
    auto fence = WriteFence::build({inside_, "/dev/null"});
    ASSERT_TRUE(fence.has_value()) << fence.error().message;
    fence_.emplace(std::move(*fence));
  }
  TempDir base_;
  std::string inside_, outside_;
  std::optional<WriteFence> fence_;
};

TEST_F(WriteFenceTest, WritesBeneathTheAllowedTreeWork) {
  Shell r =
      run_fenced(*fence_, "cd '" + inside_ +
                              "' && mkdir -p a/b && echo x > a/b/f && "
                              "ln -s f a/b/l && mv a/b/f a/g && rm a/g && mkfifo p && echo ok");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(r.output, "ok\n");
}

TEST_F(WriteFenceTest, EveryChangeOutsideIsRefused) {
  const std::string out = "'" + outside_ + "'";
  for (const std::string& attempt :
       {"echo x > " + out + "/new", "echo x >> " + out + "/existing", ": > " + out + "/existing",
        "truncate -s 0 " + out + "/existing", "rm -f " + out + "/existing", "mkdir " + out + "/d",
        "ln -s /etc " + out + "/l",
        "ln '" + inside_ + "/../outside/existing' '" + inside_ + "/hard'",
        "mkfifo " + out + "/fifo", "mv " + out + "/existing '" + inside_ + "/stolen'",
        "python3 -c \"open('" + outside_ + "/py','w')\""}) {
    Shell r = run_fenced(*fence_, attempt);
    EXPECT_NE(r.code, 0) << attempt << ": " << r.output;
  }
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(outside_))
    names.push_back(entry.path().filename());
  EXPECT_EQ(names, std::vector<std::string>{"existing"});
  std::ifstream in(outside_ + "/existing");
  std::string text((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(text, "original\n");
  EXPECT_FALSE(fs::exists(inside_ + "/hard"));
  EXPECT_FALSE(fs::exists(inside_ + "/stolen"));
}

TEST_F(WriteFenceTest, ReadsAndAllowedDevicesAreNotFenced) {
  Shell r =
      run_fenced(*fence_, "cat '" + outside_ +
                              "/existing' && echo gone > /dev/null && ls / >/dev/null && echo ok");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(r.output, "original\nok\n");
}

TEST_F(WriteFenceTest, PtyChildrenAreFencedToo) {
  Shell r = run_fenced(*fence_, "echo x > '" + outside_ + "/pty' 2>/dev/null; echo rc=$?",
                       TerminalMode::kPty);
  EXPECT_NE(r.output.find("rc=1"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(outside_ + "/pty"));
}

TEST_F(WriteFenceTest, TheSpawningProcessStaysFree) {
  run_fenced(*fence_, "true");
  std::ofstream(outside_ + "/parent") << "still writable\n";
  EXPECT_TRUE(fs::exists(outside_ + "/parent"));
}

TEST(WriteFence, SwitchedOffBySetting) {
  ::setenv("HERMES_LANDLOCK", "off", 1);
  LandlockSupport support = landlock_support();
  auto fence = WriteFence::build({"/tmp"});
  ::unsetenv("HERMES_LANDLOCK");
  EXPECT_EQ(support.abi, 0);
  EXPECT_NE(support.why_not.find("HERMES_LANDLOCK=off"), std::string::npos);
  ASSERT_FALSE(fence.has_value());
  EXPECT_EQ(fence.error().code, ErrorCode::kUnavailable);
}

TEST(WriteFence, ARefusedFenceNeverRunsTheCommand) {
  // A descriptor that is not a ruleset: landlock_restrict_self fails.
  TempDir dir;
  int not_a_ruleset = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  auto child = spawn({.argv = {"bash", "-c", "echo ran > '" + dir.file("ran") + "'"},
                      .write_fence_fd = not_a_ruleset});
  ASSERT_TRUE(child.has_value()) << child.error().message;
  std::string out;
  RunOutcome r = run_bounded(*child, {}, {}, [&](std::string_view b) { out += b; });
  ::close(not_a_ruleset);
  EXPECT_EQ(r.status.code, 126);
  EXPECT_NE(out.find("refused the Landlock write fence"), std::string::npos) << out;
  EXPECT_FALSE(fs::exists(dir.file("ran")));
}

// A fence that cannot be built on a kernel with Landlock is an error, never
// "unavailable" (which lets commands run unfenced with a notice).
TEST(WriteFence, AnAllowedPathThatCannotBeOpenedIsAnError) {
  if (landlock_support().abi == 0) GTEST_SKIP() << landlock_support().why_not;
  TempDir dir;
  auto fence = WriteFence::build({dir.path(), dir.file("missing")}, {dir.file("also-missing")});
  ASSERT_FALSE(fence.has_value());
  EXPECT_NE(fence.error().code, ErrorCode::kUnavailable);
  EXPECT_NE(fence.error().message.find(dir.file("missing")), std::string::npos)
      << fence.error().message;
  EXPECT_TRUE(WriteFence::build({dir.path()}, {dir.file("also-missing")}).has_value());
}

TEST(WriteFence, ARulesetTheKernelWillNotCreateIsAnError) {
  if (landlock_support().abi == 0) GTEST_SKIP() << landlock_support().why_not;
  // No descriptor left for the ruleset: landlock_create_ruleset fails EMFILE.
  rlimit old{};
  ::getrlimit(RLIMIT_NOFILE, &old);
  rlimit low = old;
  low.rlim_cur = 64;
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &low), 0);
  std::vector<int> filler;
  for (int fd; (fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC)) >= 0;) filler.push_back(fd);
  auto fence = WriteFence::build({"/tmp"});
  for (int fd : filler) ::close(fd);
  ::setrlimit(RLIMIT_NOFILE, &old);
  ASSERT_FALSE(fence.has_value());
  EXPECT_NE(fence.error().code, ErrorCode::kUnavailable);
  EXPECT_NE(fence.error().message.find("landlock_create_ruleset"), std::string::npos)
      << fence.error().message;
}

}  // namespace
}  // namespace hermes::proc
