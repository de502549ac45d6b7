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

// Whether the configured backend's files are this host's, at the same
// paths: local, and the sandbox (bubblewrap binds the workspace where it
// is). Elsewhere (ssh, docker) they are on the target.
bool files_on_this_host(const Config& config);

// kInvalidArgument for an unknown or unsupported backend name, or an ssh
// backend without a host.
Result<std::shared_ptr<Backend>> make_backend(const Config& config);

}  // namespace hermes::backend
