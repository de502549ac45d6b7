// SPDX-License-Identifier: MIT
// Each session owns one backend instance (its own container, sandbox /tmp or
// ssh connection), built with `Services::backends` on first use and cleaned
// up when the last user of it (the session, a background process) lets go.
#pragma once

#include "backend/backend.h"
#include "core/result.h"
#include "registry/tool.h"

#include <memory>

namespace hermes::registry {

// The session's backend, started. The error (bad configuration, ssh host
// unreachable) is the user-facing message.
Result<std::shared_ptr<backend::Backend>> session_backend(CallContext& ctx);

}  // namespace hermes::registry
