// SPDX-License-Identifier: MIT
// Choosing and building a session's backend from the configuration:
// `terminal.backend` (env `TERMINAL_ENV`) is local, ssh, sandbox or docker;
// the keys of each are listed in README.md.
#pragma once

#include "backend/backend.h"

#include <memory>
#include <string>

namespace hermes {
class Config;
}  // namespace hermes

namespace hermes::backend {

// The configured backend's name (`terminal.backend`, else `TERMINAL_ENV`,
// else local).
std::string backend_name(const Config& config);

// Whether the configured backend's files under `workspace` (a real path)
// are this host's, at the same paths: local; the sandbox (bubblewrap binds
// the workspace where it is); docker when a `terminal.docker_volumes` entry
// binds a host folder holding `workspace` at its own path inside the
// container and the engine is this host's (no DOCKER_HOST but a unix
// socket, no DOCKER_CONTEXT but "default"). Elsewhere (ssh, other docker
// files) they are on the target.
bool files_on_this_host(const Config& config, const std::string& workspace);

// A name for the configured backend's files where they are not this
// host's, which keeps their checkpoints apart from this host's files at the
// same paths: "ssh://user@host:22", "docker:<image> -v <volume>…".
std::string files_target(const Config& config);

// kInvalidArgument for an unknown or unsupported backend name, or an ssh
// backend without a host.
Result<std::shared_ptr<Backend>> make_backend(const Config& config);

}  // namespace hermes::backend
