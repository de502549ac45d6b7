// SPDX-License-Identifier: MIT
// Choosing and building a session's backend from the configuration:
// `terminal.backend` (env `TERMINAL_ENV`) is local, ssh, sandbox or docker;
// the keys of each are listed in README.md.
#pragma once

#include "backend/backend.h"

#include <memory>

namespace hermes {
class Config;
}  // namespace hermes

namespace hermes::backend {

// kInvalidArgument for an unknown or unsupported backend name, or an ssh
// backend without a host.
Result<std::shared_ptr<Backend>> make_backend(const Config& config);

}  // namespace hermes::backend
