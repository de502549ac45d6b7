// SPDX-License-Identifier: MIT
#include "backend/backend_config.h"

#include "backend/docker_backend.h"
#include "backend/local_backend.h"
#include "backend/sandbox_backend.h"
#include "backend/ssh_backend.h"
#include "core/config.h"
#include "core/paths.h"

#include <cstdlib>
#include <string_view>

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

Result<std::shared_ptr<Backend>> make_ssh(const Config& config) {
  SshTarget target{
      .host = config.get_string("terminal.ssh_host", "", "TERMINAL_SSH_HOST"),
      .user = config.get_string("terminal.ssh_user", "", "TERMINAL_SSH_USER"),
      .port = static_cast<int>(config.get_int("terminal.ssh_port", 22, "TERMINAL_SSH_PORT")),
      .key =
          PathResolver::expand_user(config.get_string("terminal.ssh_key", "", "TERMINAL_SSH_KEY")),
      .cwd = remote_cwd(config, "~"),
      .options = config.get_string_list("terminal.ssh_options"),
      .control_dir = host_temp_dir() + "/hermes-ssh",
  };
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
  options.image =
      config.get_string("terminal.docker_image", options.image, "TERMINAL_DOCKER_IMAGE");
  options.cwd = remote_cwd(config, options.cwd);
  options.volumes = config.get_string_list("terminal.docker_volumes");
  options.network = config.get_bool("terminal.docker_network", true);
  options.cpus = config.get_string("terminal.container_cpu", options.cpus);
  options.memory = config.get_string("terminal.container_memory", options.memory);
  options.forward_env = config.get_string_list("terminal.docker_forward_env");
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

// An engine other than this host's (a remote daemon, a context) would bind
// folders of its own host.
bool docker_engine_here() {
  const char* host = std::getenv("DOCKER_HOST");
  const char* context = std::getenv("DOCKER_CONTEXT");
  return (host == nullptr || *host == 0 || std::string_view(host).starts_with("unix://")) &&
         (context == nullptr || *context == 0 || std::string_view(context) == "default");
}

// `host:container[:options]` with the same absolute path on both sides, and
// `workspace` at or below it.
bool binds_at_own_path(const std::string& volume, const std::string& workspace) {
  size_t colon = volume.find(':');
  if (colon == std::string::npos || !volume.starts_with('/')) return false;  // a named volume
  std::string host = volume.substr(0, colon);
  std::string inside = volume.substr(colon + 1, volume.find(':', colon + 1) - colon - 1);
  while (host.size() > 1 && host.ends_with('/')) host.pop_back();
  while (inside.size() > 1 && inside.ends_with('/')) inside.pop_back();
  if (host != inside) return false;
  std::string real = PathResolver::real_path(host);
  return workspace == real || workspace.starts_with(real == "/" ? real : real + "/");
}

}  // namespace

bool files_on_this_host(const Config& config, const std::string& workspace) {
  const std::string name = backend_name(config);
  if (name == "local" || name == "sandbox") return true;
  if (name != "docker" || !docker_engine_here()) return false;
  for (const std::string& volume : config.get_string_list("terminal.docker_volumes")) {
    if (binds_at_own_path(volume, workspace)) return true;
  }
  return false;
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
