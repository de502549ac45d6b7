// SPDX-License-Identifier: MIT
// Which backends' files are this host's (checkpoints keep only those): local
// and the sandbox always; docker only when a volume binds a folder holding
// the workspace at its own path and the engine is this host's; ssh never.
#include "backend/backend_config.h"

#include "core/config.h"
#include "testutil/scoped_env.h"
#include "testutil/temp_dir.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace hermes::backend {
namespace {

using testing::ScopedEnv;
using testing::TempDir;

std::unique_ptr<Config> with_volume(const std::string& volume) {
  return Config::from_yaml("terminal:\n  backend: docker\n  docker_volumes:\n    - \"" + volume +
                           "\"\n");
}

TEST(FilesOnThisHost, DockerCountsOnlyAWorkspaceBoundAtItsOwnPath) {
  ScopedEnv no_remote("DOCKER_HOST", "");
  ScopedEnv no_context("DOCKER_CONTEXT", "");
  TempDir dir;
  const std::string w = dir.path();
  EXPECT_TRUE(files_on_this_host(*with_volume(w + ":" + w), w));
  EXPECT_TRUE(files_on_this_host(*with_volume(w + "/:" + w + ":ro"), w + "/sub"));
  EXPECT_FALSE(files_on_this_host(*with_volume(w + ":/srv"), w)) << "moved inside";
  EXPECT_FALSE(files_on_this_host(*with_volume("named:" + w), w)) << "a named volume";
  EXPECT_FALSE(files_on_this_host(*with_volume(w + "/sub:" + w + "/sub"), w)) << "a part of it";
  EXPECT_FALSE(files_on_this_host(*with_volume(w + "x:" + w + "x"), w)) << "a name's prefix";
  EXPECT_FALSE(files_on_this_host(*Config::from_yaml("terminal:\n  backend: docker\n"), w));
}

TEST(FilesOnThisHost, ADockerEngineElsewhereBindsItsOwnHostsFolders) {
  TempDir dir;
  const std::string w = dir.path();
  {
    ScopedEnv remote("DOCKER_HOST", "tcp://192.0.2.1:2376");
    EXPECT_FALSE(files_on_this_host(*with_volume(w + ":" + w), w));
  }
  {
    ScopedEnv here("DOCKER_HOST", "unix:///var/run/docker.sock");
    ScopedEnv context("DOCKER_CONTEXT", "remote-box");
    EXPECT_FALSE(files_on_this_host(*with_volume(w + ":" + w), w));
  }
}

TEST(FilesOnThisHost, LocalAndTheSandboxAreThisHostsAndSshIsNot) {
  EXPECT_TRUE(files_on_this_host(*Config::from_yaml("terminal:\n  backend: local\n"), "/w"));
  EXPECT_TRUE(files_on_this_host(*Config::from_yaml("terminal:\n  backend: sandbox\n"), "/w"));
  EXPECT_FALSE(files_on_this_host(
      *Config::from_yaml("terminal:\n  backend: ssh\n  ssh_host: h\n  docker_volumes: ['/w:/w']\n"),
      "/w"));
}

}  // namespace
}  // namespace hermes::backend
