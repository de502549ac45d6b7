// SPDX-License-Identifier: MIT
// The sandbox backend's promises, proved from inside bubblewrap: writes
// outside the workspace fail, inside they land on the host, /tmp is private
// to the session and kept across commands, the network is cut unless
// configured, and no capability is left.
#include "backend/sandbox_backend.h"

#include "backend/backend_test_util.h"
#include "testutil/scoped_env.h"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace hermes::testing {
namespace {

class SandboxBackendTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why = unavailable_reason(BackendKind::kSandbox);
    if (!why.empty()) GTEST_SKIP() << why;
  }
  std::unique_ptr<StartedBackend> sandbox(const std::string& extra = "") {
    auto started = start_backend(backend_yaml(BackendKind::kSandbox, work_.path(), extra));
    EXPECT_TRUE(started->started.has_value()) << started->started.error().message;
    return started;
  }

  TempDir work_;
  TempDir outside_;
};

// A TCP listener on a loopback port of the host's network namespace.
class LoopbackListener {
 public:
  LoopbackListener() : fd_(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
        ::listen(fd_, 8) == 0 &&
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
      port_ = ntohs(addr.sin_port);
    }
  }
  ~LoopbackListener() { ::close(fd_); }
  int port() const { return port_; }

 private:
  int fd_;
  int port_ = 0;
};

std::string connect_script(int port) {
  return "if (exec 3<>/dev/tcp/127.0.0.1/" + std::to_string(port) +
         ") 2>/dev/null; then echo connected; else echo refused; fi";
}

TEST_F(SandboxBackendTest, WritesOutsideTheWorkspaceFail) {
  auto box = sandbox();
  // Outside /tmp the host's tree is visible and read-only.
  std::string home = std::getenv("HOME") ? std::getenv("HOME") : "/root";
  for (const std::string& path : {home + "/hermes-escape", std::string("/etc/hermes-escape"),
                                  std::string("/usr/hermes-escape")}) {
    auto r = run(*box->backend, "echo x > " + path);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_NE(r->exit_code, 0) << path;
    EXPECT_NE(r->output.find("Read-only file system"), std::string::npos) << r->output;
    EXPECT_FALSE(std::filesystem::exists(path)) << path;
  }
  // The host's /tmp (here, another directory in it) is not even visible.
  auto r = run(*box->backend, "echo x > " + outside_.file("escape.txt"));
  ASSERT_TRUE(r);
  EXPECT_NE(r->exit_code, 0);
  EXPECT_NE(r->output.find("No such file or directory"), std::string::npos) << r->output;
  EXPECT_FALSE(std::filesystem::exists(outside_.file("escape.txt")));
}

// A HOME under the host's /tmp (a CI runner's, a build tree's test home in
// a checkout under /tmp) is not hidden by the private /tmp: `~` and what is
// in it are there, read-only.
TEST_F(SandboxBackendTest, AHomeUnderTmpIsVisibleAndReadOnly) {
  std::string made = "/tmp/hermes-home-XXXXXX";
  ASSERT_NE(::mkdtemp(made.data()), nullptr);
  std::string home = std::filesystem::canonical(made).string();
  struct Remove {
    std::string dir;
    ~Remove() { std::filesystem::remove_all(dir); }
  } remove{home};
  { std::ofstream(home + "/.bashrc") << "export FROM_RC=yes\n"; }
  ScopedEnv env("HOME", home);
  auto box = sandbox();
  auto r = run(*box->backend, "cd ~ && pwd && . ~/.bashrc && echo $FROM_RC");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->output, home + "\nyes\n");
  auto write = run(*box->backend, "echo x > ~/escape");
  ASSERT_TRUE(write);
  EXPECT_NE(write->output.find("Read-only file system"), std::string::npos) << write->output;
  EXPECT_FALSE(std::filesystem::exists(home + "/escape"));
}

TEST_F(SandboxBackendTest, WritesInsideTheWorkspaceLandOnTheHost) {
  auto box = sandbox();
  EXPECT_EQ(box->backend->default_cwd(), work_.path());
  auto r =
      run(*box->backend, "cd " + work_.path() + " && mkdir -p sub && printf 'kept' > sub/file.txt");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->exit_code, 0) << r->output;
  EXPECT_EQ(work_.read("sub/file.txt"), "kept");
}

TEST_F(SandboxBackendTest, ConfiguredWritableDirectoriesAreWritable) {
  auto box = sandbox("sandbox_writable:\n  - " + outside_.path());
  auto r = run(*box->backend, "echo extra > " + outside_.file("extra.txt"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->exit_code, 0) << r->output;
  EXPECT_EQ(outside_.read("extra.txt"), "extra\n");
}

TEST_F(SandboxBackendTest, TmpIsPrivateAndKeptForTheSession) {
  auto box = sandbox();
  std::string name = "hermes-private-" + std::to_string(::getpid());
  auto write = run(*box->backend, "echo secret > /tmp/" + name + " && echo $TMPDIR");
  ASSERT_TRUE(write);
  EXPECT_EQ(write->output, "/tmp\n");
  EXPECT_FALSE(std::filesystem::exists("/tmp/" + name));  // not the host's /tmp
  auto again = run(*box->backend, "cat /tmp/" + name);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->output, "secret\n");  // the same session sees it
  auto other = sandbox();
  auto foreign = run(*other->backend, "cat /tmp/" + name + " 2>/dev/null || echo absent");
  ASSERT_TRUE(foreign);
  EXPECT_EQ(foreign->output, "absent\n");  // another session does not
}

TEST_F(SandboxBackendTest, CleanupRemovesThePrivateTmp) {
  TempDir host_tmp;
  backend::SandboxBackend box(
      backend::SandboxOptions{.workspace = work_.path(), .host_temp_dir = host_tmp.path()});
  ASSERT_TRUE(box.start({}).has_value());
  auto r = run(box, "echo y > /tmp/left");
  ASSERT_TRUE(r);
  auto entries = [&] {
    return std::distance(std::filesystem::directory_iterator(host_tmp.path()),
                         std::filesystem::directory_iterator());
  };
  EXPECT_EQ(entries(), 1);
  box.cleanup();
  EXPECT_EQ(entries(), 0);
}

TEST_F(SandboxBackendTest, NetworkIsCutByDefault) {
  LoopbackListener listener;
  ASSERT_GT(listener.port(), 0);
  auto box = sandbox();
  auto r = run(*box->backend, connect_script(listener.port()));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->output, "refused\n");
}

TEST_F(SandboxBackendTest, NetworkWhenConfigured) {
  LoopbackListener listener;
  ASSERT_GT(listener.port(), 0);
  auto box = sandbox("sandbox_network: true");
  auto r = run(*box->backend, connect_script(listener.port()));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->output, "connected\n");
}

TEST_F(SandboxBackendTest, NoCapabilitiesRemain) {
  auto box = sandbox();
  auto r = run(*box->backend,
               "grep -E '^Cap(Eff|Prm|Bnd):' /proc/self/status | awk '{print $2}' | sort -u");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->output, "0000000000000000\n");
}

TEST_F(SandboxBackendTest, SessionPersistenceWorksInside) {
  // The terminal keeps cwd and env in files under /tmp between commands.
  auto box = sandbox();
  auto a = run(*box->backend, "cd " + work_.path() +
                                  " && mkdir -p d && cd d && export HERMES_X=1 && "
                                  "{ pwd; export -p; } > /tmp/snap");
  ASSERT_TRUE(a);
  auto b = run(*box->backend, "head -1 /tmp/snap; grep -c HERMES_X /tmp/snap");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->output, work_.path() + "/d\n1\n");
}

}  // namespace
}  // namespace hermes::testing
