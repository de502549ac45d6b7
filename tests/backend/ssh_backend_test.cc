// SPDX-License-Identifier: MIT
// The ssh backend against a real sshd on loopback: the control socket, `~`
// expanded on the remote side, and the faults (nothing listening, a refused
// key, the connection killed mid-command) each a clear error, never a hang,
// with no local file left behind.
#include "backend/ssh_backend.h"

#include "backend/backend_test_util.h"
#include "fs/atomic_write.h"
#include "proc/child_ledger.h"
#include "testutil/sshd_server.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <stop_token>
#include <thread>

namespace hermes::testing {
namespace {

using std::chrono::seconds;

class SshBackendTest : public ::testing::Test {
 protected:
  void SetUp() override { HERMES_REQUIRE_SSHD(); }

  backend::SshTarget target(const std::string& key = "") {
    const SshdServer& sshd = shared_sshd();
    return backend::SshTarget{.host = "127.0.0.1",
                              .user = "root",
                              .port = sshd.port(),
                              .key = key.empty() ? sshd.client_key() : key,
                              .cwd = "",
                              .options = sshd.ssh_options(),
                              .control_dir = control_.path() + "/hermes-ssh"};
  }
  // Files left in the local control directory.
  std::vector<std::string> leftovers() const {
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& e : std::filesystem::recursive_directory_iterator(control_.path(), ec)) {
      if (!e.is_directory()) names.push_back(e.path().string());
    }
    return names;
  }

  TempDir control_;
};

bool is_socket(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISSOCK(st.st_mode);
}

// The master outlives the backend by ControlPersist (the next session or
// `hermes-tools call` reuses it, as upstream); `ssh -O exit` ends it early.
TEST_F(SshBackendTest, ControlSocketIsPerTargetAndPersistsForReuse) {
  std::string path;
  {
    backend::SshBackend backend(target());
    ASSERT_TRUE(backend.start({}).has_value());
    std::string id = "root@127.0.0.1:" + std::to_string(shared_sshd().port());
    path = backend.control_path();
    EXPECT_EQ(path, control_.path() + "/hermes-ssh/" + fs::sha256_hex(id).substr(0, 16) + ".sock");
    EXPECT_TRUE(is_socket(path));
    auto r = run(backend, "echo via-master");
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->output, "via-master\n");
    backend.cleanup();
  }
  EXPECT_TRUE(is_socket(path));
  backend::SshBackend again(target());
  ASSERT_TRUE(again.start({}).has_value());
  EXPECT_EQ(again.control_path(), path);
  std::string close = "ssh -o ControlPath=" + path + " -O exit x >/dev/null 2>&1";
  EXPECT_EQ(std::system(close.c_str()), 0);
  // The master removes its socket as it exits.
  auto deadline = std::chrono::steady_clock::now() + seconds(5);
  while (std::filesystem::exists(path) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(leftovers().empty()) << leftovers().front();
}

// The control master outlives the ssh client that started it, so it comes
// back to the server (a child subreaper); ending what came back after a
// command killed its supervisor must spare it.
TEST_F(SshBackendTest, TheControlMasterIsKeptWhenAdoptedProcessesAreEnded) {
  proc::become_subreaper();
  backend::SshBackend backend(target());
  ASSERT_TRUE(backend.start({}).has_value());
  EXPECT_EQ(proc::end_adopted(), 0);
  std::string check = "ssh -o ControlPath=" + backend.control_path() + " -O check x 2>/dev/null";
  EXPECT_EQ(std::system(check.c_str()), 0);
  auto r = run(backend, "echo still-via-master");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->output, "still-via-master\n");
  std::string close = "ssh -o ControlPath=" + backend.control_path() + " -O exit x >/dev/null 2>&1";
  EXPECT_EQ(std::system(close.c_str()), 0);
}

// Killing the local ssh client does not end the remote command; run_bash
// ends it on the target (by the pid the script printed first).
TEST_F(SshBackendTest, TimeoutEndsTheRemoteCommandToo) {
  backend::SshBackend backend(target());
  ASSERT_TRUE(backend.start({}).has_value());
  auto r = run(backend, "sleep 61.4242; true", std::chrono::milliseconds(700));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->end, proc::RunEnd::kTimedOut);
  EXPECT_EQ(r->output.find("__HERMES_PID_"), std::string::npos) << r->output;
  auto deadline = std::chrono::steady_clock::now() + seconds(5);
  while (std::system("pgrep -f 'sleep 61[.]4242' >/dev/null") == 0 &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_NE(std::system("pgrep -f 'sleep 61[.]4242' >/dev/null"), 0) << "the remote sleep survived";
}

// ssh keeps an option's first value: configured options must come first to
// be able to override ours (here LogLevel=ERROR).
TEST_F(SshBackendTest, ConfiguredOptionsOverrideOurs) {
  backend::SshTarget t = target();
  t.options.push_back("LogLevel=DEBUG1");
  backend::SshBackend backend(t);
  ASSERT_TRUE(backend.start({}).has_value());
  auto r = backend::run_bash_captured(backend, {.script = "echo ok", .separate_stderr = true}, {});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->output, "ok\n");
  EXPECT_NE(r->stderr_text.find("debug1:"), std::string::npos) << r->stderr_text;
}

TEST_F(SshBackendTest, ConfigPutsTheSocketUnderTmpdir) {
  TempDir work;
  auto started = start_backend(backend_yaml(BackendKind::kSsh, work.path()));
  ASSERT_TRUE(started->started.has_value()) << started->started.error().message;
  auto& ssh = dynamic_cast<backend::SshBackend&>(*started->backend);
  const char* tmp = std::getenv("TMPDIR");
  std::string dir = std::string(tmp && *tmp ? tmp : "/tmp") + "/hermes-ssh/";
  EXPECT_TRUE(ssh.control_path().starts_with(dir)) << ssh.control_path();
  EXPECT_TRUE(is_socket(ssh.control_path()));
  EXPECT_EQ(ssh.default_cwd(), work.path());
}

TEST_F(SshBackendTest, TildeIsTheRemoteHome) {
  backend::SshTarget t = target();
  t.cwd = "~/project";
  backend::SshBackend backend(std::move(t));
  ASSERT_TRUE(backend.start({}).has_value());
  const std::string remote_home = shared_sshd().remote_home();
  const char* local_home = std::getenv("HOME");
  ASSERT_NE(remote_home, local_home ? local_home : "");
  EXPECT_EQ(backend.home(), remote_home);
  EXPECT_EQ(backend.default_cwd(), remote_home + "/project");
  auto r = run(backend, "cd ~ && pwd");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->output, remote_home + "\n");
}

TEST_F(SshBackendTest, NothingListeningIsAClearErrorNamingTheTarget) {
  backend::SshTarget t = target();
  t.port = 1;  // privileged and unused on loopback: refused at once
  backend::SshBackend backend(std::move(t));
  auto start = std::chrono::steady_clock::now();
  Status status = backend.start({});
  ASSERT_FALSE(status.has_value());
  EXPECT_EQ(status.error().code, ErrorCode::kUnavailable);
  EXPECT_NE(status.error().message.find("SSH backend: cannot connect to root@127.0.0.1:1"),
            std::string::npos)
      << status.error().message;
  EXPECT_NE(status.error().message.find("Connection refused"), std::string::npos)
      << status.error().message;
  EXPECT_LT(seconds_since(start), 12.0);
  auto r = run(backend, "echo never");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("cannot connect"), std::string::npos);
  backend.cleanup();
  EXPECT_TRUE(leftovers().empty());
}

TEST_F(SshBackendTest, RefusedKeyIsAClearError) {
  backend::SshBackend backend(target(shared_sshd().refused_key()));
  auto start = std::chrono::steady_clock::now();
  Status status = backend.start({});
  ASSERT_FALSE(status.has_value());
  EXPECT_EQ(status.error().code, ErrorCode::kUnavailable);
  EXPECT_NE(status.error().message.find("root@127.0.0.1:"), std::string::npos);
  EXPECT_NE(status.error().message.find("Permission denied (publickey)"), std::string::npos)
      << status.error().message;
  EXPECT_LT(seconds_since(start), 12.0);
  backend.cleanup();
  EXPECT_TRUE(leftovers().empty());
}

TEST_F(SshBackendTest, DroppedConnectionMidCommandIsAnErrorNotAHang) {
  backend::SshBackend backend(target());
  ASSERT_TRUE(backend.start({}).has_value());
  TempDir work;
  std::string marker = work.file("running");
  std::jthread killer([&] {
    if (wait_for_file(marker)) shared_sshd().kill_connections();
  });
  auto start = std::chrono::steady_clock::now();
  auto r = run(backend, "touch " + marker + "; sleep 30; echo never", seconds(25));
  killer.join();
  EXPECT_LT(seconds_since(start), 10.0);
  ASSERT_FALSE(r) << "exit " << r->exit_code << ": " << r->output;
  EXPECT_EQ(r.error().code, ErrorCode::kUnavailable);
  EXPECT_NE(r.error().message.find("SSH backend: connection to root@127.0.0.1:"), std::string::npos)
      << r.error().message;
  // The next command opens a fresh connection.
  auto again = run(backend, "echo back");
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ(again->output, "back\n");
}

TEST_F(SshBackendTest, RemoteExit255IsTheCommandsOwn) {
  backend::SshBackend backend(target());
  ASSERT_TRUE(backend.start({}).has_value());
  auto r = run(backend, "echo last words; exit 255");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->exit_code, 255);
  EXPECT_EQ(r->output, "last words\n");
}

TEST_F(SshBackendTest, NoHostConfiguredIsRefusedByName) {
  auto started = start_backend("terminal:\n  backend: ssh\n");
  ASSERT_FALSE(started->started.has_value());
  EXPECT_NE(started->started.error().message.find("no host configured"), std::string::npos);
}

}  // namespace
}  // namespace hermes::testing
