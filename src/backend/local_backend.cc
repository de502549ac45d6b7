// SPDX-License-Identifier: MIT
#include "backend/local_backend.h"

#include "core/paths.h"
#include "proc/child_env.h"

#include <cstdlib>

namespace hermes::backend {

Status LocalBackend::start(std::stop_token) {
  if (options_.root.empty()) return {};
  std::lock_guard lock(mu_);
  if (fence_) return {};
  HERMES_ASSIGN_OR_RETURN(fence_,
                          CommandFence::create({.root = options_.root,
                                                .extra_write_paths = options_.extra_write_paths,
                                                .host_temp_dir = options_.host_temp_dir}));
  return {};
}

std::vector<std::string> LocalBackend::bash_argv(const std::string& script, bool login) const {
  if (login) return {"bash", "-l", "-c", script};
  return {"bash", "-c", script};
}

std::optional<std::vector<std::string>> LocalBackend::launch_env() const {
  std::vector<std::string> env =
      proc::terminal_environment(proc::current_environment(), options_.env_passthrough);
  if (const CommandFence* fence = command_fence()) proc::set_env(env, "TMPDIR", fence->temp_dir());
  return env;
}

const CommandFence* LocalBackend::command_fence() const {
  std::lock_guard lock(mu_);
  return fence_.get();
}

bool LocalBackend::capture_writes(std::shared_ptr<const proc::WriteCapture> capture) {
  // The write fence sets no_new_privs on every command, which lets the
  // command's child install the capture's filter unprivileged.
  const CommandFence* fence = command_fence();
  Result<int> fence_fd = fence ? fence->write_fence_fd() : Result<int>(-1);
  return capture_.set(std::move(capture), fence_fd && *fence_fd >= 0);
}

std::shared_ptr<const proc::WriteCapture> LocalBackend::write_capture() const {
  return capture_.get();
}

std::string LocalBackend::home() const { return PathResolver::expand_user("~"); }

std::string LocalBackend::default_cwd() const {
  // A server started elsewhere still starts its commands inside the root.
  return PathResolver::inside_root(PathResolver::workspace(""), options_.root);
}

std::string LocalBackend::temp_dir() const {
  if (const CommandFence* fence = command_fence()) return fence->temp_dir();
  const char* t = std::getenv("TMPDIR");
  return t && *t ? t : "/tmp";
}

}  // namespace hermes::backend
