// SPDX-License-Identifier: MIT
// Which backends' files are this host's (checkpoints keep only those): local
// and the sandbox always; docker only when a volume binds a folder holding
// the workspace at its own path and the engine is this host's; ssh never.
#include "backend/backend_config.h"

#include "core/config.h"
#include "testutil/scoped_env.h"
#include "testutil/temp_dir.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <memory>
#include <string>

namespace hermes::backend {
namespace {

using testing::ScopedEnv;
using testing::TempDir;

// The engine this host's whatever the machine's own docker settings say:
// no DOCKER_HOST, no DOCKER_CONTEXT, a CLI config naming no context.
struct LocalEngine {
  TempDir config;
  ScopedEnv host{"DOCKER_HOST", ""};
  ScopedEnv context{"DOCKER_CONTEXT", ""};
  ScopedEnv config_dir{"DOCKER_CONFIG", config.path()};
};

std::unique_ptr<Config> with_volume(const std::string& volume) {
  return Config::from_yaml("terminal:\n  backend: docker\n  docker_volumes:\n    - \"" + volume +
                           "\"\n");
}

TEST(FilesOnThisHost, DockerCountsOnlyAWorkspaceBoundAtItsOwnPath) {
  LocalEngine engine;
  TempDir dir;
  const std::string w = dir.path();
  EXPECT_TRUE(files_on_this_host(*with_volume(w + ":" + w), w));
  EXPECT_TRUE(files_on_this_host(*with_volume(w + "/:" + w + ":ro"), w + "/sub"));
  EXPECT_FALSE(files_on_this_host(*with_volume(w + ":/srv"), w)) << "moved inside";
  EXPECT_FALSE(files_on_this_host(*with_volume("named:" + w), w)) << "a named volume";
  EXPECT_FALSE(files_on_this_host(*with_volume(w + "/sub:" + w + "/sub"), w)) << "a part of it";
  EXPECT_FALSE(files_on_this_host(*with_volume(w + "x:" + w + "x"), w)) << "a name's prefix";
  EXPECT_FALSE(files_on_this_host(*Config::from_yaml("terminal:\n  backend: docker\n"), w));
  EXPECT_TRUE(files_on_this_host(*with_volume(w + "/./sub/..:" + w), w)) << "docker cleans paths";
}

TEST(FilesOnThisHost, ADeeperMountCoversTheBind) {
  LocalEngine engine;
  TempDir dir, other;
  const std::string w = dir.path();
  auto two = Config::from_yaml("terminal:\n  backend: docker\n  docker_volumes:\n    - \"" + w +
                               ":" + w + "\"\n    - \"" + other.path() + ":" + w + "/proj\"\n");
  EXPECT_TRUE(files_on_this_host(*two, w));
  EXPECT_FALSE(files_on_this_host(*two, w + "/proj/src")) << "another folder is bound there";
  // The container's own tmpfs at /var/tmp hides a bind of /var below it.
  EXPECT_FALSE(files_on_this_host(*with_volume("/var:/var"), "/var/tmp/work"));
}

TEST(FilesOnThisHost, ABindThroughASymlinkIsNotTheWorkspace) {
  LocalEngine engine;
  TempDir dir;
  const std::string real = dir.path() + "/real";
  const std::string link = dir.path() + "/link";
  dir.write("real/f.txt", "f\n");
  ASSERT_EQ(::symlink(real.c_str(), link.c_str()), 0);
  // Inside, `link` is the bound folder; on this host it is `real`, which the
  // container does not see at `real`.
  EXPECT_FALSE(files_on_this_host(*with_volume(link + ":" + link), real));
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
  // A context chosen with `docker context use` lives in the CLI's config.
  LocalEngine engine;
  engine.config.write("config.json", "{\"auths\": {}, \"currentContext\": \"remote-box\"}\n");
  EXPECT_FALSE(files_on_this_host(*with_volume(w + ":" + w), w));
  engine.config.write("config.json", "{\"currentContext\": \"default\"}\n");
  EXPECT_TRUE(files_on_this_host(*with_volume(w + ":" + w), w));
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
