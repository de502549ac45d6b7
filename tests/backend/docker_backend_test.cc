// SPDX-License-Identifier: MIT
// The docker backend against the test shim (tests/backend/docker_shim): the
// hardening options of `docker run`, exec per command, forwarded variables,
// a vanished container recreated once, cleanup. One test uses a real engine
// when `docker info` works and is skipped otherwise.
#include "backend/docker_backend.h"

#include "backend/backend_test_util.h"
#include "backend/local_command.h"
#include "proc/write_capture.h"

#include <gtest/gtest.h>

#include <fcntl.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace hermes::testing {
namespace {

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// True when `seq` occurs in `args` as consecutive elements.
bool has_sequence(const std::vector<std::string>& args, std::vector<std::string> seq) {
  return std::search(args.begin(), args.end(), seq.begin(), seq.end()) != args.end();
}

class DockerShimTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why = unavailable_reason(BackendKind::kDocker);
    if (!why.empty()) GTEST_SKIP() << why;
    state_ = use_docker_shim();
  }
  std::unique_ptr<StartedBackend> docker(const std::string& extra = "") {
    auto started = start_backend(backend_yaml(BackendKind::kDocker, work_.path(), extra));
    EXPECT_TRUE(started->started.has_value()) << started->started.error().message;
    return started;
  }
  backend::DockerBackend& as_docker(StartedBackend& s) {
    return dynamic_cast<backend::DockerBackend&>(*s.backend);
  }
  std::vector<std::string> run_args(const std::string& id) {
    return lines_of(state_ + "/" + id + "/run_args");
  }
  // Removes the container behind the backend's back.
  void vanish(const std::string& id) {
    auto rm = backend::run_local_command({"docker", "rm", "-f", id}, std::chrono::seconds(10));
    ASSERT_TRUE(rm && rm->exit_code == 0);
    ASSERT_FALSE(std::filesystem::exists(state_ + "/" + id));
  }

  std::string state_;
  TempDir work_;
};

TEST_F(DockerShimTest, RunPassesTheHardeningOptions) {
  auto box = docker("docker_network: false\ncontainer_cpu: \"2\"\ncontainer_memory: 3g");
  std::string id = as_docker(*box).container_id();
  ASSERT_FALSE(id.empty());
  auto args = run_args(id);
  ASSERT_FALSE(args.empty()) << "the shim recorded no run for " << id;
  EXPECT_EQ(args[0], "-d");
  EXPECT_TRUE(has_sequence(args, {"--init"}));
  EXPECT_TRUE(has_sequence(args, {"--label", "hermes-agent=1"}));
  auto name = std::find(args.begin(), args.end(), "--name");
  ASSERT_NE(name, args.end());
  EXPECT_EQ(name[1].size(), std::string("hermes-").size() + 8) << name[1];
  EXPECT_TRUE(name[1].starts_with("hermes-"));
  EXPECT_TRUE(has_sequence(args, {"-w", work_.path()}));
  EXPECT_TRUE(has_sequence(args, {"--cap-drop", "ALL"}));
  for (const char* cap : {"DAC_OVERRIDE", "CHOWN", "FOWNER", "SETUID", "SETGID"}) {
    EXPECT_TRUE(has_sequence(args, {"--cap-add", cap})) << cap;
  }
  EXPECT_TRUE(has_sequence(args, {"--security-opt", "no-new-privileges"}));
  EXPECT_TRUE(has_sequence(args, {"--tmpfs", "/tmp:rw,nosuid,size=512m"}));
  EXPECT_TRUE(has_sequence(args, {"--tmpfs", "/var/tmp:rw,noexec,nosuid,size=256m"}));
  EXPECT_TRUE(has_sequence(args, {"--tmpfs", "/run:rw,noexec,nosuid,size=64m"}));
  EXPECT_TRUE(has_sequence(args, {"--pids-limit", "256"}));
  EXPECT_TRUE(has_sequence(args, {"--shm-size", "1g"}));
  EXPECT_TRUE(has_sequence(args, {"--cpus", "2"}));
  EXPECT_TRUE(has_sequence(args, {"--memory", "3g"}));
  EXPECT_TRUE(has_sequence(args, {"--network=none"}));
  EXPECT_TRUE(has_sequence(args, {"-v", work_.path() + ":" + work_.path()}));
  EXPECT_TRUE(
      has_sequence(args, {"nikolaik/python-nodejs:python3.11-nodejs20", "sleep", "infinity"}));
}

TEST_F(DockerShimTest, NetworkOnByDefault) {
  auto box = docker();
  auto args = run_args(as_docker(*box).container_id());
  ASSERT_FALSE(args.empty());
  EXPECT_FALSE(has_sequence(args, {"--network=none"}));
}

TEST_F(DockerShimTest, ExecRunsInTheContainer) {
  auto box = docker();
  EXPECT_EQ(box->backend->home(), "/root");
  auto r = run(*box->backend, "pwd; echo $HOME; echo x > /tmp/kept; touch /etc/nope 2>&1 || true");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(r->output.starts_with(work_.path() + "\n/root\n")) << r->output;
  EXPECT_NE(r->output.find("Read-only file system"), std::string::npos);
  auto again = run(*box->backend, "cat /tmp/kept");
  ASSERT_TRUE(again);
  EXPECT_EQ(again->output, "x\n");
}

TEST_F(DockerShimTest, ForwardedVariablesTravelByName) {
  ::setenv("HERMES_SHIM_FORWARDED", "value-from-client", 1);
  auto box = docker("docker_forward_env:\n  - HERMES_SHIM_FORWARDED");
  auto& d = as_docker(*box);
  auto argv = d.bash_argv("true", false);
  EXPECT_TRUE(has_sequence(argv, {"-e", "HERMES_SHIM_FORWARDED"}));  // the name only
  auto r = run(*box->backend, "echo \"$HERMES_SHIM_FORWARDED\"");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->output, "value-from-client\n");
  ::unsetenv("HERMES_SHIM_FORWARDED");
}

// Every container gets the write capture's folder; its commands start under
// the helper (and so under the filter) only once a capture is set, and a
// container recreated after it vanished gets the folder too.
TEST_F(DockerShimTest, CommandsRunUnderTheCaptureOnceItIsSet) {
  if (!proc::write_capture_available(true)) GTEST_SKIP() << "no write capture here";
  auto box = docker();
  auto& d = as_docker(*box);
  auto bound = [&] {
    auto args = run_args(d.container_id());
    return std::any_of(args.begin(), args.end(), [](const std::string& a) {
      return a.ends_with(std::string(":") + backend::kDockerCaptureMount + ":ro");
    });
  };
  EXPECT_TRUE(bound());
  const std::string seccomp = "grep Seccomp: /proc/self/status";
  EXPECT_EQ(run(d, seccomp)->output, "Seccomp:\t0\n");

  auto capture = std::make_shared<proc::WriteCapture>();
  capture->dir.reset(::open(work_.path().c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  capture->looks.reset(::open("/dev/zero", O_RDONLY | O_CLOEXEC));
  capture->root = "/nowhere";  // nothing is kept: only the filter is looked at
  ASSERT_TRUE(d.capture_writes(capture));
  EXPECT_TRUE(has_sequence(d.bash_argv("true", false),
                           {std::string(backend::kDockerCaptureMount) + "/capture-exec",
                            std::string(backend::kDockerCaptureMount) + "/socket", "--", "bash"}));
  EXPECT_EQ(run(d, seccomp)->output, "Seccomp:\t2\n");

  vanish(d.container_id());
  auto r = run(d, seccomp);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->output, "Seccomp:\t2\n");
  EXPECT_TRUE(bound());
}

TEST_F(DockerShimTest, VanishedContainerIsRecreatedOnce) {
  auto box = docker();
  auto& d = as_docker(*box);
  std::string first = d.container_id();
  vanish(first);
  auto r = run(d, "echo after-recreate");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->output, "after-recreate\n");
  std::string second = d.container_id();
  EXPECT_NE(second, first);
  EXPECT_TRUE(std::filesystem::exists(state_ + "/" + second));
  vanish(second);
  auto failed = run(d, "echo never");
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error().code, ErrorCode::kUnavailable);
  EXPECT_NE(failed.error().message.find("Docker backend: the session's container is gone"),
            std::string::npos)
      << failed.error().message;
  EXPECT_NE(failed.error().message.find("No such container"), std::string::npos);
}

TEST_F(DockerShimTest, CommandPrintingTheErrorTextIsNotATransportError) {
  // A command's own output that mentions the CLI's error text must not make
  // the session lose its container (and its /tmp) to a recreation.
  auto box = docker();
  std::string id = as_docker(*box).container_id();
  auto r = run(*box->backend,
               "echo x > /tmp/state; grep -h 'No such container' " +
                   std::string("/dev/stdin <<< 'log: Error: No such container: abc'; exit 1"));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->exit_code, 1);
  EXPECT_EQ(as_docker(*box).container_id(), id);
}

TEST_F(DockerShimTest, CleanupRemovesTheContainer) {
  auto box = docker();
  std::string id = as_docker(*box).container_id();
  ASSERT_TRUE(std::filesystem::exists(state_ + "/" + id));
  box->backend->cleanup();
  EXPECT_FALSE(std::filesystem::exists(state_ + "/" + id));
  EXPECT_TRUE(as_docker(*box).container_id().empty());
}

TEST_F(DockerShimTest, ShimReportsNoEngine) {
  auto info = backend::run_local_command({"docker", "info"}, std::chrono::seconds(10));
  ASSERT_TRUE(info);
  EXPECT_EQ(info->exit_code, 1);
  EXPECT_NE(info->errors.find("shim: no engine"), std::string::npos);
}

TEST(DockerRealEngineTest, RunsACommandInARealContainer) {
  std::string docker = real_docker();
  if (docker.empty()) GTEST_SKIP() << "no docker CLI on PATH besides the shim";
  auto info = backend::run_local_command({docker, "info"}, std::chrono::seconds(20));
  if (!info || info->exit_code != 0) {
    GTEST_SKIP() << "`docker info` fails (no container engine): "
                 << (info ? backend::last_line(info->errors.empty() ? info->output : info->errors)
                          : info.error().message);
  }
  const char* image = std::getenv("HERMES_TEST_DOCKER_IMAGE");
  backend::DockerOptions options{.docker = docker, .image = image ? image : "debian:12-slim"};
  backend::DockerBackend backend(options);
  Status started = backend.start({});
  ASSERT_TRUE(started.has_value()) << started.error().message;
  auto r = run(backend, "echo hi; cat", std::chrono::seconds(60), "in\n");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->output, "hi\nin\n");
  backend.cleanup();
}

}  // namespace
}  // namespace hermes::testing
