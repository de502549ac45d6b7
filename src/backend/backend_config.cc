// SPDX-License-Identifier: MIT
#include "backend/backend_config.h"

#include "backend/docker_backend.h"
#include "backend/local_backend.h"
#include "backend/sandbox_backend.h"
#include "backend/ssh_backend.h"
#include "core/config.h"
#include "core/paths.h"
#include "fs/atomic_write.h"

#include <cstdlib>
#include <string_view>
#include <vector>

namespace hermes::backend {
namespace {

std::string host_temp_dir() {
  const char* t = std::getenv("TMPDIR");
  return t && *t ? t : "/tmp";
}

// `terminal.cwd` / TERMINAL_CWD for a remote target, where the host's cwd
// means nothing.
std::string remote_cwd(const Config& config, const std::string& fallback) {
  std::string cwd = config.get_string("terminal.cwd", "", "TERMINAL_CWD");
  if (cwd.starts_with("/") || cwd.starts_with("~")) return cwd;
  return fallback;
}

SshTarget ssh_target(const Config& config) {
  return SshTarget{
      .host = config.get_string("terminal.ssh_host", "", "TERMINAL_SSH_HOST"),
      .user = config.get_string("terminal.ssh_user", "", "TERMINAL_SSH_USER"),
      .port = static_cast<int>(config.get_int("terminal.ssh_port", 22, "TERMINAL_SSH_PORT")),
      .key =
          PathResolver::expand_user(config.get_string("terminal.ssh_key", "", "TERMINAL_SSH_KEY")),
      .cwd = remote_cwd(config, "~"),
      .options = config.get_string_list("terminal.ssh_options"),
      .control_dir = host_temp_dir() + "/hermes-ssh",
  };
}

std::string docker_image(const Config& config) {
  return config.get_string("terminal.docker_image", DockerOptions{}.image, "TERMINAL_DOCKER_IMAGE");
}

Result<std::shared_ptr<Backend>> make_ssh(const Config& config) {
  SshTarget target = ssh_target(config);
  if (target.host.empty()) {
    return Error::InvalidArgument(
        "SSH backend: no host configured (set terminal.ssh_host or TERMINAL_SSH_HOST)");
  }
  return std::shared_ptr<Backend>(std::make_shared<SshBackend>(std::move(target)));
}

std::shared_ptr<Backend> make_sandbox(const Config& config) {
  SandboxOptions options{
      .workspace = PathResolver::real_path(
          config.get_string("terminal.sandbox_workspace", PathResolver::workspace(""))),
      .writable = config.get_string_list("terminal.sandbox_writable"),
      .network = config.get_bool("terminal.sandbox_network", false),
      .host_temp_dir = host_temp_dir(),
  };
  return std::make_shared<SandboxBackend>(std::move(options));
}

std::shared_ptr<Backend> make_docker(const Config& config) {
  DockerOptions options;
  options.image = docker_image(config);
  options.cwd = remote_cwd(config, options.cwd);
  options.volumes = config.get_string_list("terminal.docker_volumes");
  options.network = config.get_bool("terminal.docker_network", true);
  options.cpus = config.get_string("terminal.container_cpu", options.cpus);
  options.memory = config.get_string("terminal.container_memory", options.memory);
  options.forward_env = config.get_string_list("terminal.docker_forward_env");
  options.host_temp_dir = host_temp_dir();
  return std::make_shared<DockerBackend>(std::move(options));
}

std::shared_ptr<Backend> make_local(const Config& config) {
  LocalOptions options{
      .portable_files = config.get_bool("terminal.portable_files", false),
      .env_passthrough = config.get_string_list("terminal.env_passthrough"),
      .root = PathResolver(config.get_string("security.workspace_root", "")).root(),
      .host_temp_dir = host_temp_dir(),
  };
  for (const std::string& path : config.get_string_list("security.command_write_paths")) {
    options.extra_write_paths.push_back(PathResolver::expand_user(path));
  }
  return std::make_shared<LocalBackend>(std::move(options));
}

}  // namespace

std::string backend_name(const Config& config) {
  return config.get_string("terminal.backend", "local", "TERMINAL_ENV");
}

namespace {

// The context `docker context use` chose, from the CLI's config file
// (`currentContext`; "" when none). Read by hand: one string field.
std::string chosen_docker_context() {
  const char* dir = std::getenv("DOCKER_CONFIG");
  std::string path = dir != nullptr && *dir != 0
                         ? std::string(dir) + "/config.json"
                         : PathResolver::expand_user("~/.docker/config.json");
  auto text = fs::read_whole_file(path);
  if (!text) return "";
  size_t key = text->find("\"currentContext\"");
  size_t open = key == std::string::npos ? key : text->find('"', text->find(':', key));
  size_t close = open == std::string::npos ? open : text->find('"', open + 1);
  return close == std::string::npos ? "" : text->substr(open + 1, close - open - 1);
}

// An engine other than this host's (a remote daemon, a context) would bind
// folders of its own host.
bool docker_engine_here() {
  const char* host = std::getenv("DOCKER_HOST");
  const char* context = std::getenv("DOCKER_CONTEXT");
  std::string chosen = context != nullptr && *context != 0 ? context : chosen_docker_context();
  return (host == nullptr || *host == 0 || std::string_view(host).starts_with("unix://")) &&
         (chosen.empty() || chosen == "default");
}

// Whether `path` is `parent` or below it (both normalized).
bool at_or_below(const std::string& path, const std::string& parent) {
  return path == parent || parent == "/" || path.starts_with(parent + "/");
}

// The container side of a volume `source:target[:options]` (normalized),
// and its source when that is a host folder bound at the same path.
struct Volume {
  std::string target;
  bool same_path = false;
};
Volume read_volume(const std::string& volume) {
  size_t colon = volume.find(':');
  if (colon == std::string::npos) return {};  // an anonymous volume: no target we bind
  std::string source = volume.substr(0, colon);
  std::string target = volume.substr(colon + 1, volume.find(':', colon + 1) - colon - 1);
  if (!target.starts_with('/')) return {};
  Volume out{.target = PathResolver::normalize(target)};
  // A named volume is not a host folder; a bind through a symlink puts the
  // files elsewhere on this host than at its path inside.
  out.same_path = source.starts_with('/') && PathResolver::normalize(source) == out.target &&
                  PathResolver::real_path(out.target) == out.target;
  return out;
}

// A volume binds a host folder holding `workspace` at its own path, and no
// deeper mount covers the workspace: docker mounts the shallower first, so
// the deepest target at or above the workspace is what the container sees
// there (the container's own tmpfs mounts count as mounts of its own).
bool docker_binds_workspace(const std::vector<std::string>& volumes, const std::string& workspace) {
  std::vector<Volume> mounts;
  for (const DockerTmpfs& tmpfs : kDockerTmpfs) mounts.push_back({tmpfs.point});
  for (const std::string& entry : volumes) mounts.push_back(read_volume(entry));
  std::string deepest;
  bool deepest_same = false;
  for (const Volume& mount : mounts) {
    if (mount.target.empty() || !at_or_below(workspace, mount.target)) continue;
    if (mount.target.size() > deepest.size() || (mount.target == deepest && !mount.same_path)) {
      deepest = mount.target;
      deepest_same = mount.same_path;
    }
  }
  return deepest_same;
}

}  // namespace

bool files_on_this_host(const Config& config, const std::string& workspace) {
  const std::string name = backend_name(config);
  if (name == "local" || name == "sandbox") return true;
  if (name != "docker" || !docker_engine_here()) return false;
  return docker_binds_workspace(config.get_string_list("terminal.docker_volumes"), workspace);
}

std::string files_target(const Config& config) {
  const std::string name = backend_name(config);
  if (name == "ssh") {
    SshTarget target = ssh_target(config);
    std::string user = target.user.empty() ? "" : target.user + "@";
    return "ssh://" + user + target.host + ":" + std::to_string(target.port);
  }
  if (name == "docker") {
    // The volumes say whose files a container has: two projects bound at
    // the same path inside it are two workspaces.
    std::string key = "docker:" + docker_image(config);
    for (const std::string& volume : config.get_string_list("terminal.docker_volumes")) {
      key += " -v " + volume;
    }
    return key;
  }
  return name + ":";
}

Result<std::shared_ptr<Backend>> make_backend(const Config& config) {
  const std::string name = backend_name(config);
  if (name == "local") return std::shared_ptr<Backend>(make_local(config));
  if (name == "ssh") return make_ssh(config);
  if (name == "sandbox") return make_sandbox(config);
  if (name == "docker") return make_docker(config);
  return Error::InvalidArgument("Unknown terminal backend '" + name +
                                "' (hermes-tools supports local, ssh, sandbox and docker)");
}

}  // namespace hermes::backend
