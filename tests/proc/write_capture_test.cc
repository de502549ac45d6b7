// SPDX-License-Identifier: MIT
// The write capture as a command would meet it: every way a shell changes
// or removes a file keeps the old bytes, under the name of the state the
// file was in; reads, new files, files outside the workspace and files
// over the cap keep nothing; and the command's own results are unchanged.
#include "proc/write_capture.h"

#include "proc/capture_server.h"
#include "proc/fd_passing.h"
#include "proc/run.h"
#include "proc/spawn.h"
#include "proc/unix_socket.h"
#include "testutil/temp_dir.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <linux/capability.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

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

  std::string run(const std::string& script) { return run_argv({"bash", "-c", script}); }

  std::string run_argv(const std::vector<std::string>& argv) {
    auto child = spawn({.argv = argv, .cwd = root_, .write_capture = &capture_});
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

// bubblewrap's command sees the workspace through mounts of its own mount
// namespace, in a pid namespace of its own: the supervisor still finds
// each file by the stopped process's root.
TEST_F(WriteCaptureTest, ACommandInsideBubblewrapIsKeptToo) {
  if (find_program("bwrap").empty()) GTEST_SKIP() << "no bubblewrap here";
  put(root_ + "/edited", "old edited\n");
  put(root_ + "/removed", "old removed\n");
  stdfs::create_directories(root_ + "/.git");
  put(root_ + "/.git/index", "git's\n");
  std::map<std::string, std::string> want{{name_now("edited"), "old edited\n"},
                                          {name_now("removed"), "old removed\n"}};
  capture_.ignored = {".git"};
  // The sandbox backend's way of running a command, in short.
  std::vector<std::string> argv = {"bwrap", "--die-with-parent", "--unshare-all"};
  for (const char* pair : {"--ro-bind / /", "--dev /dev", "--proc /proc", "--cap-drop ALL"}) {
    std::istringstream words(pair);
    for (std::string word; words >> word;) argv.push_back(word);
  }
  argv.insert(argv.end(), {"--bind", root_, root_, "--chdir", root_, "bash", "-c",
                           "sed -i s/old/new/ edited && rm removed && echo g > .git/index && "
                           "echo n > new && cat edited"});
  std::string out = run_argv(argv);
  EXPECT_EQ(out, "new edited\n");
  EXPECT_EQ(kept(), want);
  // Both lost their only name (sed -i renames its copy over the file): each
  // is kept by a second name, through this host's mount of the workspace
  // (a link across bubblewrap's bind of it fails with EXDEV).
  for (const auto& e : stdfs::directory_iterator(kept_)) {
    std::string name = e.path().filename();
    struct ::stat st {};
    ASSERT_EQ(::stat(e.path().c_str(), &st), 0);
    EXPECT_EQ(std::to_string(st.st_ino),
              name.substr(name.find('-') + 1, name.find('.') - name.find('-') - 1))
        << name << " is a copy";
  }
}

// Without CAP_SYS_ADMIN the kernel takes a filter only from a process with
// no_new_privs: the command gets it, and is captured.
TEST_F(WriteCaptureTest, WithoutCapSysAdminTheCommandRunsWithNoNewPrivs) {
  put(root_ + "/f", "old\n");
  std::string name = name_now("f");
  std::string out;
  // Capabilities are a thread's own: only this thread drops the effective one.
  std::thread([&] {
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct data[2]{};
    ASSERT_EQ(::syscall(SYS_capget, &header, data), 0);
    data[CAP_SYS_ADMIN / 32].effective &= ~(1U << (CAP_SYS_ADMIN % 32));
    ASSERT_EQ(::syscall(SYS_capset, &header, data), 0);
    out = run("grep NoNewPrivs /proc/self/status && echo new > f");
  }).join();
  EXPECT_NE(out.find("NoNewPrivs:\t1"), std::string::npos) << out;
  EXPECT_EQ(kept(), (std::map<std::string, std::string>{{name, "old\n"}}));
}

// Handed over (capture_server.h): a command this server does not start
// itself runs its first step, hermes-capture-exec, which installs the
// filter and hands its listener to the server's thread.
class HandedOverTest : public WriteCaptureTest {
 protected:
  void SetUp() override {
    WriteCaptureTest::SetUp();
    if (IsSkipped()) return;
    auto started = CaptureServer::start(tmp_.path());
    ASSERT_TRUE(started.has_value()) << started.error().message;
    server_ = std::move(*started);
    // The fixture owns the capture; the server only borrows it.
    server_->set(std::shared_ptr<const WriteCapture>(std::shared_ptr<void>(), &capture_));
  }

  std::string socket() const { return server_->folder() + "/" + CaptureServer::kSocketName; }

  // The helper's exit code, and the output of `script` run under it.
  std::pair<int, std::string> run_helped(const std::string& socket_path,
                                         const std::string& script) {
    std::string helper = server_->folder() + "/" + CaptureServer::kHelperName;
    auto child = spawn({.argv = {helper, socket_path, "--", "bash", "-c", script}, .cwd = root_});
    EXPECT_TRUE(child.has_value()) << child.error().message;
    std::string out;
    RunOutcome r = run_bounded(*child, {}, {}, [&](std::string_view b) { out += b; });
    return {r.status.code, out};
  }

  // A helper's command that rewrites a file starts within seconds, and the
  // file's old bytes are kept.
  void expect_a_command_kept_promptly() {
    put(root_ + "/f", "old\n");
    std::string name = name_now("f");
    auto started = std::chrono::steady_clock::now();
    EXPECT_EQ(run_helped(socket(), "echo new > f").first, 0);
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
    EXPECT_EQ(kept(), (std::map<std::string, std::string>{{name, "old\n"}}));
  }

  std::unique_ptr<CaptureServer> server_;
};

TEST_F(HandedOverTest, TheFileIsKeptAsATreesSupervisorKeepsIt) {
  put(root_ + "/f", "old f\n");
  put(root_ + "/g", "old g\n");
  std::map<std::string, std::string> want = {{name_now("f"), "old f\n"},
                                             {name_now("g"), "old g\n"}};
  auto [code, out] = run_helped(socket(), "echo new > f && rm g");
  EXPECT_EQ(code, 0) << out;
  EXPECT_EQ(slurp(root_ + "/f"), "new\n");
  EXPECT_EQ(kept(), want);
}

// No server at the socket (a container started before the capture was
// bound): the command runs as it would without the helper, and nothing is
// kept, so the store records its changes by metadata only.
TEST_F(HandedOverTest, WithNoServerAtTheSocketTheCommandRunsUncaptured) {
  put(root_ + "/f", "old\n");
  auto [code, out] = run_helped(tmp_.path() + "/nobody", "echo new > f && echo ran");
  EXPECT_EQ(code, 0);
  EXPECT_EQ(out, "ran\n");
  EXPECT_EQ(slurp(root_ + "/f"), "new\n");
  EXPECT_TRUE(kept().empty());
}

// A listening socket that takes the connection and never answers: the
// filter would have no one to answer its writes, so the command must not
// run at all.
TEST_F(HandedOverTest, AServerThatDoesNotTakeTheListenerKeepsTheCommandFromRunning) {
  std::string path = tmp_.path() + "/mute";
  auto mute = listen_unix(path, 0600, 1);
  ASSERT_TRUE(mute.has_value()) << mute.error().message;
  std::thread hang_up([&] {
    pollfd waiting{mute->get(), POLLIN, 0};
    ::poll(&waiting, 1, 10'000);
    UniqueFd peer(::accept(mute->get(), nullptr, nullptr));
    char byte;
    (void)::recv(peer.get(), &byte, 1, 0);  // takes the byte, drops the listener
  });
  auto [code, out] = run_helped(path, "echo ran > made");
  hang_up.join();
  EXPECT_EQ(code, 126) << out;
  EXPECT_NE(out.find("did not run"), std::string::npos) << out;
  EXPECT_FALSE(stdfs::exists(root_ + "/made"));
}

// Anyone who can reach the socket may send a descriptor: one that is not a
// filter's listener is closed unanswered, and the server goes on serving.
TEST_F(HandedOverTest, ADescriptorThatIsNotAListenerIsRefused) {
  int pipe_fds[2];
  ASSERT_EQ(::pipe2(pipe_fds, O_CLOEXEC), 0);
  UniqueFd read_end(pipe_fds[0]), write_end(pipe_fds[1]);
  auto peer = connect_unix(socket());
  ASSERT_TRUE(peer.has_value()) << peer.error().message;
  ASSERT_TRUE(send_fd(peer->get(), read_end.get()));
  char answer = 0;
  EXPECT_EQ(::recv(peer->get(), &answer, 1, 0), 0) << "answered a pipe";

  put(root_ + "/f", "old\n");
  std::string name = name_now("f");
  EXPECT_EQ(run_helped(socket(), "echo new > f").first, 0);
  EXPECT_EQ(kept(), (std::map<std::string, std::string>{{name, "old\n"}}));
}

// A peer that connects and sends nothing holds the handover for at most
// half a second: the next helper's command still starts.
TEST_F(HandedOverTest, APeerThatSendsNothingDoesNotHoldUpTheNext) {
  auto silent = connect_unix(socket());
  ASSERT_TRUE(silent.has_value()) << silent.error().message;
  expect_a_command_kept_promptly();
}

// A listener handed over twice (or read by its sender too) makes one of
// its readers wait for good: that reader is a child serving that listener
// alone, so another command's handover and writes go on.
TEST_F(HandedOverTest, AListenerHandedOverTwiceHoldsUpOnlyItsOwnCommands) {
  std::string path = socket();
  std::string victim = root_ + "/theirs";
  pid_t attacker = ::fork();
  if (attacker == 0) {
    ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    int listener = capture_internal::install_filter();
    for (int i = 0; i < 2; ++i) {
      auto s = connect_unix(path);
      char answer;
      if (!s || !send_fd(s->get(), listener) || ::recv(s->get(), &answer, 1, 0) != 1) ::_exit(2);
      (void)s->release();  // kept open: the handover stays as it is
    }
    ::close(::open(victim.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644));  // one reader serves it
    ::pause();  // holds the filter, and the other reader waiting
    ::_exit(0);
  }
  ASSERT_GT(attacker, 0);
  for (int i = 0; i < 500 && !stdfs::exists(victim); ++i) ::usleep(10'000);
  EXPECT_TRUE(stdfs::exists(victim));

  expect_a_command_kept_promptly();
  ::kill(attacker, SIGKILL);
  ::waitpid(attacker, nullptr, 0);
}

// The server's folder is reachable from the container (bound there), not by
// this host's other users.
TEST_F(HandedOverTest, OnlyTheBoundFolderIsOpenToOthers) {
  struct ::stat folder {
  }, parent{};
  ASSERT_EQ(::stat(server_->folder().c_str(), &folder), 0);
  ASSERT_EQ(::stat(stdfs::path(server_->folder()).parent_path().c_str(), &parent), 0);
  EXPECT_EQ(parent.st_mode & 07777, 0700u);
  EXPECT_EQ(folder.st_mode & 07777, 0711u);
}

// Open descriptors of this process, counted.
size_t open_fds() {
  return static_cast<size_t>(std::distance(stdfs::directory_iterator("/proc/self/fd"), {}));
}

// A peer may send several descriptors where one is expected: each is closed
// again, none is taken.
TEST(FdPassing, SeveralDescriptorsInOneMessageAreAllClosed) {
  int pair[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair), 0);
  UniqueFd ours(pair[0]), theirs(pair[1]);
  size_t before = open_fds();
  for (int sent : {2, 3, 8}) {
    std::vector<int> fds(static_cast<size_t>(sent), STDERR_FILENO);
    char byte = 0;
    iovec data{&byte, 1};
    std::vector<char> control(CMSG_SPACE(fds.size() * sizeof(int)));
    msghdr msg{};
    msg.msg_iov = &data;
    msg.msg_iovlen = 1;
    msg.msg_control = control.data();
    msg.msg_controllen = control.size();
    cmsghdr* c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(fds.size() * sizeof(int));
    std::memcpy(CMSG_DATA(c), fds.data(), fds.size() * sizeof(int));
    ASSERT_EQ(::sendmsg(theirs.get(), &msg, 0), 1);
    EXPECT_EQ(receive_fd(ours.get()), -1) << sent << " sent";
    EXPECT_EQ(open_fds(), before) << sent << " sent";
  }
  ASSERT_TRUE(send_fd(theirs.get(), STDERR_FILENO));
  UniqueFd one(receive_fd(ours.get()));
  EXPECT_TRUE(one.valid());
}

}  // namespace
}  // namespace hermes::proc
